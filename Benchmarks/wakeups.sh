#!/usr/bin/env bash
# wakeups.sh PID SECONDS — count a process's wake-ups (context switches) over an interval.
#
# Sums voluntary_ctxt_switches + nonvoluntary_ctxt_switches over every thread in
# /proc/PID/task/*/status, once at the start and once after SECONDS, and prints
#
#   pid=<p> seconds=<s> wakeups=<n> per_second=<x>
#   tid=<t> comm=<name> voluntary=<dv> nonvoluntary=<dn> wakeups=<d>     (one line per thread)
#
# A thread blocked in poll()/epoll_wait() with no timeout does not switch at all, so an idle
# event-driven process reads 0. Threads born during the interval count from zero; threads that
# exited during it are reported as exited (their switches since the start are lost).
# Reading /proc from here does not wake the target. Output on stdout, errors through common.sh's die.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if [[ $# -ne 2 || ! $1 =~ ^[0-9]+$ || ! $2 =~ ^[0-9]+([.][0-9]+)?$ ]]; then
    echo "usage: $0 PID SECONDS" >&2
    exit 2
fi
pid=$1
seconds=$2
[[ -d /proc/$pid/task ]] || die "no such process: $pid"

# snapshot start|end: records every thread's switch counts (keyed by thread id) and its name.
declare -A start_vol=() start_nonvol=() end_vol=() end_nonvol=() comm=()
snapshot() {
    local which=$1 dir tid key value vol nonvol
    for dir in /proc/"$pid"/task/*; do
        tid=${dir##*/}
        vol='' nonvol=''
        # The thread may exit between the glob and the read: skip it then.
        while read -r key value _; do
            case $key in
                voluntary_ctxt_switches:) vol=$value ;;
                nonvoluntary_ctxt_switches:) nonvol=$value ;;
            esac
        done 2>/dev/null < "$dir/status" || continue
        [[ -n $vol && -n $nonvol ]] || continue
        if [[ $which == start ]]; then
            start_vol[$tid]=$vol start_nonvol[$tid]=$nonvol
        else
            end_vol[$tid]=$vol end_nonvol[$tid]=$nonvol
        fi
        if [[ -z ${comm[$tid]:-} ]]; then
            comm[$tid]=$(cat "$dir/comm" 2>/dev/null || echo '?')
        fi
    done
}

snapshot start
sleep "$seconds"
[[ -d /proc/$pid/task ]] || die "process $pid exited during the measurement"
snapshot end

total=0
lines=()
for tid in $(printf '%s\n' "${!start_vol[@]}" "${!end_vol[@]}" | sort -nu); do
    if [[ -n ${end_vol[$tid]:-} ]]; then
        dv=$(( end_vol[$tid] - ${start_vol[$tid]:-0} ))
        dn=$(( end_nonvol[$tid] - ${start_nonvol[$tid]:-0} ))
        note=''
        [[ -n ${start_vol[$tid]:-} ]] || note=' (started during the interval)'
        total=$(( total + dv + dn ))
        lines+=("tid=$tid comm=${comm[$tid]} voluntary=$dv nonvoluntary=$dn wakeups=$(( dv + dn ))$note")
    else
        lines+=("tid=$tid comm=${comm[$tid]} exited during the interval")
    fi
done

per_second=$(awk -v n="$total" -v s="$seconds" 'BEGIN { printf "%.2f", (s > 0 ? n / s : 0) }')
echo "pid=$pid seconds=$seconds wakeups=$total per_second=$per_second"
printf '%s\n' "${lines[@]}"
