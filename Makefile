# SPDX-License-Identifier: GPL-2.0
#
# airqueue: TCP over 802.11 fixes for Linux 6.12 and the testbed that proves
# them.  `make help` lists the targets.

AQ_TOP := $(CURDIR)
AQ_BUILD ?= $(AQ_TOP)/build
export AQ_TOP AQ_BUILD

# KDIR: the kernel build tree our modules build against.  Default: the
# prepared Debian 6.12 headers (scripts/prepare-kernel installs them on first
# use).  A user may pass KDIR=/lib/modules/$(uname -r)/build.
ifeq ($(origin KDIR), undefined)
KDIR = $(shell test -f $(AQ_BUILD)/kernel/env || $(AQ_TOP)/scripts/prepare-kernel >&2; \
	. $(AQ_BUILD)/kernel/env && echo $$KDIR)
endif

.PHONY: all modules tc tools patched check check-ports check-debug debug-kernel bisect testbed \
	bench install install-patched deb prepare clean distclean help

all: modules tc tools

prepare:
	scripts/install-deps
	scripts/prepare-kernel

modules:
	$(MAKE) -C $(KDIR) M=$(AQ_TOP) modules

# The tc plugin needs the iproute2 source of the installed tc.
tc:
	@if [ -f sch_ebdp/tc/Makefile ]; then \
		scripts/prepare-iproute2 && $(MAKE) -C sch_ebdp/tc; \
	fi

# aq-retry, the command-line tool of the retry policy's nl80211 vendor
# commands (build/aq-retry/aq-retry)
tools:
	$(MAKE) -C mac80211-retry/aq-retry

patched:
	scripts/build-patched

check:
	scripts/check

# Do the series apply (git apply --check, no fuzz) to Debian's 6.12 point
# releases? ARGS=--all: every one apt lists, not only the oldest and newest
check-ports:
	scripts/check-ports $(ARGS)

# A kernel with KASAN, KFENCE, kmemleak, lockdep, DEBUG_OBJECTS and UBSAN,
# built once from the prepared source into build/debug-kernel/ (cached)
debug-kernel:
	scripts/build-debug-kernel

# The VM suite on the debug kernel: any report of those fails the script
# that caused it (VM_FILTER='*/NAME.sh,...': only those scripts)
check-debug:
	scripts/check --kernel debug $(if $(VM_FILTER),--vm-filter '$(VM_FILTER)')

# Every patch of the series builds on its own (not part of check: ~16 min)
bisect:
	scripts/check --phases bisect

# FULL=1: the papers' full sweeps (resumable); TESTBED_ARGS: more options
# for testbed/run (see testbed/run --help)
testbed:
	testbed/run $(if $(FULL),--full) $(TESTBED_ARGS)

bench:
	testbed/bench

# Our modules into /lib/modules/<kver>/updates/airqueue, the tc plugin where
# tc looks for it.
install: all
	$(MAKE) -C $(KDIR) M=$(AQ_TOP) INSTALL_MOD_DIR=updates/airqueue modules_install
	@if [ -f sch_ebdp/tc/Makefile ]; then $(MAKE) -C sch_ebdp/tc install; fi
	$(MAKE) -C mac80211-retry/aq-retry install
	depmod -a $(notdir $(patsubst %/build,%,$(realpath $(KDIR))))

# The patched mac80211 / ath9k family / hwsim, for the prepared kernel.
install-patched: patched
	scripts/install-patched

# Debian packages for Debian 12 with Debian's 6.12 kernel, into build/deb/:
# airqueue-dkms (sch_ebdp and tcp_airtime through DKMS) and airqueue-tc (the
# tc plugin).  Documentation/dev/packaging.rst
deb:
	scripts/build-deb

# Per module directory: kbuild's clean with M=$(AQ_TOP) would delete every
# *.ko* below it, including the kernel cache in build/.
MODULE_DIRS := sch_ebdp tcp_cong_airtime

clean:
	-for d in $(MODULE_DIRS); do $(MAKE) -C $(KDIR) M=$(AQ_TOP)/$$d clean; done
	@if [ -f sch_ebdp/tc/Makefile ]; then $(MAKE) -C sch_ebdp/tc clean; fi
	$(MAKE) -C mac80211-retry/aq-retry clean
	rm -rf $(AQ_BUILD)/patched $(AQ_BUILD)/vm/results results

distclean: clean
	rm -rf $(AQ_BUILD)

help:
	@echo 'airqueue targets:'
	@echo '  make               build our modules (sch_ebdp, tcp_airtime), the tc plugin and aq-retry'
	@echo '                     against KDIR (default: the prepared Debian 6.12 headers)'
	@echo '  make patched       rebuild mac80211, the ath9k family and mac80211_hwsim with'
	@echo '                     our patch series, into build/patched/modules'
	@echo '  make check         every test (static, host, KUnit on UML, patched build, VM);'
	@echo '                     ends with "N passed, N failed"'
	@echo '  make check-ports   do the series apply to the oldest and newest Debian 6.12'
	@echo '                     point releases (ARGS=--all: every one); a table of bases'
	@echo '  make debug-kernel  a KASAN/KFENCE/kmemleak/lockdep/UBSAN kernel for the VM'
	@echo '                     (built once into build/debug-kernel/)'
	@echo '  make check-debug   the VM suite on the debug kernel; any report fails'
	@echo '                     (VM_FILTER=GLOB,...: only those scripts)'
	@echo '  make bisect        every patch of the series builds on its own (~16 min)'
	@echo '  make testbed       the results suite: every scenario in its quick form in the'
	@echo '                     VM, a summary table per paper, results/index.html with plots'
	@echo '                     (FULL=1: the papers full sweeps, resumable; testbed/run --help)'
	@echo '  make bench         benchmarks, figures under results/bench/'
	@echo '  make install       install our modules (updates/airqueue), q_ebdp.so and aq-retry'
	@echo '  make install-patched  install the patched mac80211/ath9k for the prepared kernel'
	@echo '  make deb           Debian 12 packages into build/deb/: airqueue-dkms (our modules'
	@echo '                     through DKMS) and airqueue-tc (the tc plugin)'
	@echo '  make prepare       host packages + Debian kernel image/headers/source only'
	@echo '  make clean         remove build products (keeps the kernel cache in build/)'
	@echo '  make distclean     remove build/ entirely'
	@echo 'Variables: KDIR=<kernel build dir>, AQ_BUILD=<cache dir, default ./build>'
