# bigdata.spark: the two commands a newcomer needs are `make lab` and `make test` (see README.md).
SHELL := /bin/bash
VENV ?= $(CURDIR)/.venv
export PATH := $(VENV)/bin:$(PATH)
export ANSIBLE_CONFIG := $(CURDIR)/ansible.cfg
LAB ?= bd

.PHONY: help setup artifacts image lab lab-up lab-deploy lab-demo lab-status lab-down \
        lab-prod lab-prod-up lab-prod-deploy lab-prod-status lab-prod-down \
        test test-fast lint sanity unit molecule molecule-arm collection clean-stale

help:
	@echo "make lab        set up this machine, build artifacts, start the 3-node lab, deploy, run a Spark and a MapReduce job"
	@echo "make lab-status show the lab's containers and daemons"
	@echo "make lab-down   remove the lab's containers and network (the image and artifacts stay)"
	@echo "make lab-prod   the production-shaped 3-node lab (every node stores and computes, masters spread); lab-prod-down"
	@echo "make test       everything CI runs: lint, sanity, units, collection build, molecule scenarios"
	@echo "make test-fast  lint + units only (a few minutes)"
	@echo "make molecule-arm  the aarch64 scenario under emulation (slow; not in make test)"

setup:
	@scripts/setup-host.sh

# Hadoop, Spark and ZooKeeper (tools/dist/README.md); each is skipped when its inputs are unchanged.
artifacts: setup
	@python3 tools/build_dist.py --out artifacts

image: setup
	@lab/build-image.sh

lab: artifacts image lab-up lab-deploy lab-demo

lab-up: setup
	@lab/lab.sh up --name $(LAB)

lab-deploy:
	ansible-playbook -i inventories/lab playbooks/site.yml

lab-demo:
	ansible-playbook -i inventories/lab playbooks/smoke.yml

lab-status:
	@lab/lab.sh status --name $(LAB)

lab-down:
	@lab/lab.sh down --name $(LAB)

# The production-shaped lab (inventories/lab-prod): its own containers and network, beside the plain lab.
lab-prod: artifacts image lab-prod-up lab-prod-deploy
	ansible-playbook -i inventories/lab-prod playbooks/smoke.yml

lab-prod-up: setup
	@lab/lab.sh up --name prod --shape prod

lab-prod-deploy:
	ansible-playbook -i inventories/lab-prod playbooks/site.yml

lab-prod-status:
	@lab/lab.sh status --name prod

lab-prod-down:
	@lab/lab.sh down --name prod

clean-stale:
	@tests/clean-stale.sh

test: setup
	@tests/run-all.sh

test-fast: setup
	@tests/run-all.sh lint unit

lint: setup
	@tests/run-all.sh lint

sanity: setup
	@tests/run-all.sh sanity

unit: setup
	@tests/run-all.sh unit

molecule: setup
	@tests/run-all.sh molecule

# One aarch64 node under qemu-user-static: well over an hour on this 2-core machine, so not part of `make test`.
molecule-arm: setup
	@MOLECULE_SCENARIOS=arm tests/run-all.sh molecule
