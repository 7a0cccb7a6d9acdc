# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# GNU General Public License v3.0+ (see LICENSES/GPL-3.0-or-later.txt or https://www.gnu.org/licenses/gpl-3.0.txt)
# Documentation of the modules, which carry ansible-core's licence (see plugins/modules).

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment:
    """The attributes of a module that only reads or computes: the same run in check mode, no diff."""

    DOCUMENTATION = r"""
attributes:
  check_mode:
    support: full
    description: The module only reads or computes; it runs the same in check mode.
  diff_mode:
    support: none
    description: Nothing changes, so there is no diff.
"""
