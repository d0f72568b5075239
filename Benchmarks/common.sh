# common.sh — sourced by every benchmark script: building, a private bus, background programs
# that are always cleaned up, test tones, the machine's background load.
#
#   source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
#
# Provides: here root work (a private temporary directory), log die, build PRODUCT... (sets bin),
# start_bus (a private dbus-daemon without service directories; exports DBUS_SESSION_BUS_ADDRESS,
# points the system bus nowhere and XDG_* into $work, so nothing of the user's is read or written),
# spawn TAG CMD... (background program, output in $work/TAG.out/.err, pid in ${pids[TAG]}),
# stop_tag TAG, wait_tag TAG (its exit status), term_tag TAG [SECONDS] (SIGTERM; its exit status),
# wait_ready TAG [SECONDS] (its "ready" line), wait_name BUSNAME [SECONDS], wait_gone BUSNAME
# [SECONDS], name_owner_pid BUSNAME, make_tone FILE SECONDS, busy_percent SECONDS and
# cpu_sample / busy_since SAMPLE (all CPUs), machine_line, cpu_ticks PID (utime+stime in clock
# ticks), vm_hwm PID and vm_rss PID (kB), mpv_version. On exit every spawned program is stopped
# (SIGTERM, then SIGKILL) and $work removed.
# $work is made under TMPDIR (default /tmp): on a machine where something sweeps /tmp, point TMPDIR
# at a directory of your own, or a player may lose its files (and the bus its socket) mid-run.
# Audio servers: audio-servers.sh, sourced after this file.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
root=$(cd "$here/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mprisd-bench.XXXXXX")
declare -A pids=()
spawn_order=()

log() { printf '%s\n' "$*" >&2; }
die() { log "$(basename "$0"): $*"; exit 1; }

stop_pid() { # stop_pid PID: SIGTERM, then SIGKILL after 3 s
    local pid=$1 i
    [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for (( i = 0; i < 30; i++ )); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
stop_tag() { # stop_tag TAG
    [[ -n ${pids[$1]:-} ]] || return 0
    stop_pid "${pids[$1]}"
    unset "pids[$1]"
}
common_cleanup() {
    local i
    for (( i = ${#spawn_order[@]} - 1; i >= 0; i-- )); do
        stop_tag "${spawn_order[$i]}"
    done
    rm -rf "$work"
}
trap common_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

spawn() { # spawn TAG CMD...: runs CMD in the background (stdin /dev/null)
    local tag=$1
    shift
    "$@" > "$work/$tag.out" 2> "$work/$tag.err" < /dev/null &
    pids[$tag]=$!
    spawn_order+=("$tag")
}
wait_tag() { # wait_tag TAG: until TAG ends by itself; returns its exit status
    local pid=${pids[$1]} status=0
    wait "$pid" || status=$?
    unset "pids[$1]"
    return "$status"
}
term_tag() { # term_tag TAG [SECONDS]: SIGTERM, dies unless TAG ends within SECONDS (10); returns its exit status
    local i limit=$(( ${2:-10} * 10 ))
    kill -TERM "${pids[$1]}" 2>/dev/null || true
    for (( i = 0; i < limit; i++ )); do
        kill -0 "${pids[$1]}" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "${pids[$1]}" 2>/dev/null && die "$1 did not exit within ${2:-10} s of SIGTERM"
    wait_tag "$1"
}
wait_ready() { # wait_ready TAG [SECONDS]: until TAG prints a line starting with "ready" (20 s)
    local i limit=$(( ${2:-20} * 20 ))
    for (( i = 0; i < limit; i++ )); do
        grep -q '^ready' "$work/$1.out" 2>/dev/null && return 0
        kill -0 "${pids[$1]}" 2>/dev/null || die "$1 exited before it was ready: $(tail -n 5 "$work/$1.err")"
        sleep 0.05
    done
    die "$1 printed no 'ready' line in ${2:-20} s"
}

build() { # build PRODUCT...: release build of each product in the benchmarks' package (mprisd's too); sets bin
    local scratch=() product
    [[ -n ${SCRATCH:-} ]] && scratch=(--scratch-path "$SCRATCH")
    for product in "$@"; do
        log "building $product (release)"
        (cd "$root/Benchmarks" && swift build -c release "${scratch[@]}" --product "$product" >&2) ||
            die "swift build --product $product failed"
    done
    bin=$(cd "$root/Benchmarks" && swift build -c release "${scratch[@]}" --show-bin-path)
}

start_bus() {
    stop_tag bus  # a script that starts a bus per server would leave the previous one running
    cat > "$work/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:dir=$work</listen>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
    rm -f "$work/bus.address"  # a bus started before in this run left its address there
    dbus-daemon --config-file="$work/bus.conf" --nofork --print-address=3 3> "$work/bus.address" \
        > /dev/null 2> "$work/bus.err" < /dev/null &
    pids[bus]=$!
    spawn_order=(bus "${spawn_order[@]}")
    local i
    for (( i = 0; i < 100; i++ )); do
        [[ -s $work/bus.address ]] && break
        kill -0 "${pids[bus]}" 2>/dev/null || die "dbus-daemon failed: $(cat "$work/bus.err")"
        sleep 0.05
    done
    DBUS_SESSION_BUS_ADDRESS=$(head -n 1 "$work/bus.address")
    [[ -n $DBUS_SESSION_BUS_ADDRESS ]] || die "dbus-daemon printed no address"
    export DBUS_SESSION_BUS_ADDRESS
    export DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/mprisd-bench-no-system-bus
    mkdir -p "$work/state" "$work/config" "$work/runtime" "$work/data" "$work/cache"
    chmod 700 "$work/runtime"
    export XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config XDG_RUNTIME_DIR=$work/runtime
    export XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache
    # Not the user's login session (logind) nor the journal: the programs log to plain stderr.
    unset XDG_SESSION_ID JOURNAL_STREAM || true
    log "private bus: $DBUS_SESSION_BUS_ADDRESS"
}

has_owner() { # has_owner BUSNAME: exit 0 if the name has an owner on the private bus
    dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus / \
        org.freedesktop.DBus.NameHasOwner "string:$1" 2>/dev/null | grep -q true
}
wait_name() { # wait_name BUSNAME [SECONDS]
    local i limit=$(( ${2:-20} * 20 ))
    for (( i = 0; i < limit; i++ )); do
        has_owner "$1" && return 0
        sleep 0.05
    done
    die "$1 did not appear on the bus within ${2:-20} s"
}
wait_gone() { # wait_gone BUSNAME [SECONDS]
    local i limit=$(( ${2:-20} * 20 ))
    for (( i = 0; i < limit; i++ )); do
        has_owner "$1" || return 0
        sleep 0.05
    done
    die "$1 was still on the bus after ${2:-20} s"
}
name_owner_pid() { # name_owner_pid BUSNAME: the pid of the process owning BUSNAME
    dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus / \
        org.freedesktop.DBus.GetConnectionUnixProcessID "string:$1" | awk '{ print $2 }'
}

make_tone() { # make_tone FILE SECONDS [HZ]: 44.1 kHz 16-bit stereo WAV, a quiet sine
    python3 - "$1" "$2" "${3:-440}" <<'PY'
import math, struct, sys, wave
path, seconds, hz = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
rate = 44100
second = b"".join(struct.pack("<hh", int(3000 * math.sin(2 * math.pi * hz * i / rate)),
                              int(3000 * math.sin(2 * math.pi * hz * i / rate))) for i in range(rate))
with wave.open(path, "wb") as out:
    out.setnchannels(2); out.setsampwidth(2); out.setframerate(rate)
    for _ in range(seconds):
        out.writeframes(second)
PY
}

cpu_sample() { # cpu_sample: "BUSY TOTAL" jiffies of all CPUs so far, for busy_since
    awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat
}
busy_since() { # busy_since SAMPLE: how busy all CPUs were (%) since cpu_sample printed SAMPLE
    awk -v a="$1" -v b="$(cpu_sample)" 'BEGIN { split(a, x, " "); split(b, y, " "); t = y[2] - x[2];
                                               printf "%.0f", (t > 0 ? 100 * (y[1] - x[1]) / t : 0) }'
}
busy_percent() { # busy_percent SECONDS: how busy all CPUs were over the next SECONDS
    local a
    a=$(cpu_sample); sleep "$1"; busy_since "$a"
}
machine_line() {
    local cpu
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
    echo "$(nproc) CPUs, ${cpu:-unknown CPU}, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg)"
}
cpu_ticks() { # cpu_ticks PID: utime + stime of the whole process, in clock ticks
    # Field 2 (comm) may hold spaces: cut everything up to the last ')'.
    local stat
    stat=$(cat "/proc/$1/stat") || return 1
    stat=${stat##*) }
    awk '{ print $12 + $13 }' <<< "$stat"
}
vm_hwm() { # vm_hwm PID: peak resident set size in kB
    awk '$1 == "VmHWM:" { print $2 }' "/proc/$1/status"
}
vm_rss() { # vm_rss PID: resident set size in kB
    awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status"
}
mpv_version() { # "mpv 0.35.1" (awk reads all of mpv's output: no SIGPIPE under pipefail)
    if command -v mpv > /dev/null; then mpv --version 2>/dev/null | awk 'NR == 1 { print $1, $2 }'; else echo "mpv absent"; fi
}
