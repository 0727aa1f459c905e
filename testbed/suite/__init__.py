# SPDX-License-Identifier: GPL-2.0
"""airqueue's results suite: scenarios, runs, summary and page.

scenario  load a scenario file (testbed/scenarios/NAME.toml), apply --set
          overrides, expand it into jobs (sweep points x seeds), shard them
collect   (in the guest) turn one run's raw outputs into its JSON record
summary   aggregate run records, evaluate the papers' claims, print the table
page      plots (PNG), results/index.html and Documentation/testbed/results.rst
"""
