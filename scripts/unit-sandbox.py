#!/usr/bin/python3
"""Runs a command under the hardening settings of a systemd unit, as far as they can be applied
without systemd (the package test has no user manager to start the unit).

    unit-sandbox.py UNIT-FILE -- COMMAND [ARGUMENT...]

Applied, with the same kernel mechanisms systemd uses: UMask (umask), NoNewPrivileges
(PR_SET_NO_NEW_PRIVS), MemoryDenyWriteExecute (PR_SET_MDWE where the kernel has it, 6.3+),
and through one seccomp filter (python3-seccomp): RestrictAddressFamilies (socket(2) of another
family fails with EAFNOSUPPORT), RestrictNamespaces (unshare/setns, clone with CLONE_NEW* fail with
EPERM), RestrictRealtime (SCHED_FIFO/SCHED_RR/SCHED_DEADLINE refused), LockPersonality
(personality(2) changes refused), SystemCallArchitectures=native (the filter's bad-architecture
action kills). Anything else of [Service] is left to systemd and listed as such.
"""
import ctypes
import os
import socket
import sys

import seccomp

PR_SET_NO_NEW_PRIVS = 38
PR_SET_MDWE = 65
PR_MDWE_REFUSE_EXEC_GAIN = 1
CLONE_NEW = 0x00000080 | 0x00020000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x02000000
SCHED_REALTIME = (1, 2, 6)  # SCHED_FIFO, SCHED_RR, SCHED_DEADLINE
HARDENING = {"UMask", "NoNewPrivileges", "MemoryDenyWriteExecute", "RestrictAddressFamilies", "RestrictNamespaces",
             "RestrictRealtime", "LockPersonality", "SystemCallArchitectures", "RestrictSUIDSGID"}


def service_settings(path):
    settings, section = {}, None
    with open(path, encoding="utf-8") as unit:
        for line in unit:
            line = line.strip()
            if not line or line[0] in "#;":
                continue
            if line.startswith("["):
                section = line
            elif section == "[Service]" and "=" in line:
                key, value = line.split("=", 1)
                settings[key.strip()] = value.strip()
    return settings


def yes(value):
    return value.lower() in ("yes", "true", "1", "on")


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: unit-sandbox.py UNIT-FILE -- COMMAND [ARGUMENT...]")
    settings = service_settings(sys.argv[1])
    command = sys.argv[3:]
    applied, skipped = [], []
    libc = ctypes.CDLL(None, use_errno=True)
    prctl = libc.prctl
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]

    if "UMask" in settings:
        os.umask(int(settings["UMask"], 8))
        applied.append("UMask=" + settings["UMask"])
    if yes(settings.get("NoNewPrivileges", "no")) or yes(settings.get("RestrictSUIDSGID", "no")):
        if prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            sys.exit("unit-sandbox: PR_SET_NO_NEW_PRIVS failed")
        applied.append("NoNewPrivileges=yes")
    if yes(settings.get("MemoryDenyWriteExecute", "no")):
        if prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) == 0:
            applied.append("MemoryDenyWriteExecute=yes")
        else:
            skipped.append("MemoryDenyWriteExecute (this kernel has no PR_SET_MDWE)")

    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    filtered = []
    families = settings.get("RestrictAddressFamilies")
    if families:
        allowed = {int(getattr(socket, name)) for name in families.split() if hasattr(socket, name)}
        for family in range(64):  # AF_MAX is 46 on Linux 6
            if family not in allowed:
                rules.add_rule(seccomp.ERRNO(97), "socket", seccomp.Arg(0, seccomp.EQ, family))  # EAFNOSUPPORT
        filtered.append("RestrictAddressFamilies=" + families)
    if yes(settings.get("RestrictNamespaces", "no")):
        rules.add_rule(seccomp.ERRNO(1), "unshare")
        rules.add_rule(seccomp.ERRNO(1), "setns")
        for flag in range(32):
            if CLONE_NEW & (1 << flag):
                rules.add_rule(seccomp.ERRNO(1), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, 1 << flag, 1 << flag))
        rules.add_rule(seccomp.ERRNO(38), "clone3")  # ENOSYS: glibc falls back to clone, filtered above
        filtered.append("RestrictNamespaces=yes")
    if yes(settings.get("RestrictRealtime", "no")):
        for policy in SCHED_REALTIME:
            rules.add_rule(seccomp.ERRNO(1), "sched_setscheduler", seccomp.Arg(1, seccomp.EQ, policy))
        rules.add_rule(seccomp.ERRNO(1), "sched_setattr")
        filtered.append("RestrictRealtime=yes")
    if yes(settings.get("LockPersonality", "no")):
        current = libc.personality(0xFFFFFFFF)
        rules.add_rule(seccomp.ERRNO(1), "personality", seccomp.Arg(0, seccomp.NE, current))
        filtered.append("LockPersonality=yes")
    if settings.get("SystemCallArchitectures") == "native":
        rules.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.KILL)
        filtered.append("SystemCallArchitectures=native")
    if filtered:
        rules.load()
        applied += filtered
    skipped += sorted(key for key in settings if key not in HARDENING and key[0].isupper()
                      and key not in ("Type", "BusName", "ExecStart", "Restart", "RestartSec", "SyslogLevelPrefix",
                                      "RestartPreventExitStatus"))
    print("unit-sandbox: applied " + ", ".join(applied), file=sys.stderr)
    if skipped:
        print("unit-sandbox: left to systemd: " + ", ".join(skipped), file=sys.stderr)
    os.execvp(command[0], command)


main()
