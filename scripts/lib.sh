# SPDX-License-Identifier: GPL-2.0
# Shared shell helpers for scripts/ (sourced, not run).

: "${AQ_TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${AQ_BUILD:=$AQ_TOP/build}"
export AQ_TOP AQ_BUILD
# The kernel the builds and the VM are for: an env file as
# scripts/prepare-kernel writes (Debian's, the default) or as
# scripts/build-debug-kernel writes (the debug kernel).
: "${AQ_KENV:=$AQ_BUILD/kernel/env}"
export AQ_KENV

progress() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

logfile() {
	mkdir -p "$AQ_BUILD/logs"
	echo "$AQ_BUILD/logs/$1.log"
}

need_root() {
	[ "$(id -u)" -eq 0 ] && return 0
	command -v sudo >/dev/null || die "root needed for $1 (no sudo)"
	sudo -n true 2>/dev/null || die "root needed for $1: run as root or set up sudo"
}

# Run apt-get update at most once per hour.
apt_update_once() {
	local stamp="$AQ_BUILD/.apt-updated"
	mkdir -p "$AQ_BUILD"
	if [ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
		progress "apt-get update"
		apt-get update >"$(logfile apt-update)" 2>&1 ||
			die "apt-get update failed: $(tail -n 5 "$(logfile apt-update)")"
		touch "$stamp"
	fi
}

# git apply in the current directory as a plain tree: never let git find an
# enclosing repository (build/ lives inside ours), which would make it
# resolve paths against that repository's top and skip files outside cwd.
tree_git_apply() {
	GIT_CEILING_DIRECTORIES="$(dirname "$PWD")" git apply "$@"
}

# load_kenv: set KVER, KDIR, KSRC, KROOT, KIMAGE... from $AQ_KENV (Debian's
# kernel is prepared on first use), and AQ_KBUILD: where builds for that
# kernel go ($AQ_BUILD for Debian's, the env file's directory for another).
load_kenv() {
	if [ ! -f "$AQ_KENV" ]; then
		[ "$AQ_KENV" = "$AQ_BUILD/kernel/env" ] ||
			die "AQ_KENV=$AQ_KENV does not exist (make debug-kernel writes it)"
		"$AQ_TOP/scripts/prepare-kernel" >&2
	fi
	# shellcheck disable=SC1090
	. "$AQ_KENV"
	if [ "$AQ_KENV" = "$AQ_BUILD/kernel/env" ]; then
		AQ_KBUILD=$AQ_BUILD
	else
		AQ_KBUILD=$(dirname "$AQ_KENV")
	fi
}
