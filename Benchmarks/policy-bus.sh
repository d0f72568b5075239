#!/usr/bin/env bash
# policy-bus.sh — the policy at scale on the bus (issue 7): 1,000 client sessions from a few
# connections, a storm of activations and deactivations against the daemon; decisions per second
# and the worst decision latency as the client sees it (the round trip of Activate).
#
#   Benchmarks/policy-bus.sh > result.md     # SESSIONS=1000 DECISIONS=100000 CONNECTIONS_LIST="16 64"
#
# For each entry of CONNECTIONS_LIST: a fresh daemon (`mprisd`, its log to a file) on a private
# bus, then `bench-policy-client --sessions SESSIONS --connections K --decisions DECISIONS`: K
# threads, each with its own connection and SESSIONS/K sessions (the configuration mix of
# bench-session-storm), each making blocking Activate/Deactivate calls on its own sessions, all K
# at once (55 % Activate, 5 % of them with allowDelayedActivation; 45 % Deactivate, 80 % with
# notifyOthers; seeded). A refused activation is a decision too. The daemon's CPU time over the
# storm (utime+stime from /proc) gives its cost per decision. Markdown on stdout, progress on stderr.
# The daemon takes at most 64 sessions per connection: K must be at least SESSIONS/64.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
SESSIONS=${SESSIONS:-1000}
DECISIONS=${DECISIONS:-100000}
CONNECTIONS_LIST=${CONNECTIONS_LIST:-"16 64"}
SEED=${SEED:-42}

build mprisd bench-policy-client
start_bus
tick=$(getconf CLK_TCK)
busy_before=$(busy_percent 2)
: > "$work/rows"
: > "$work/raw"
for k in $CONNECTIONS_LIST; do
    spawn daemon "$bin/mprisd"
    wait_name org.mprisd.AudioPolicy
    before=$(cpu_ticks "${pids[daemon]}")
    "$bin/bench-policy-client" --sessions "$SESSIONS" --connections "$k" --decisions "$DECISIONS" \
        --seed "$SEED" > "$work/client.out" 2> "$work/client.err" || die "client failed: $(cat "$work/client.err")"
    after=$(cpu_ticks "${pids[daemon]}")
    kill -0 "${pids[daemon]}" 2>/dev/null || die "the daemon died: $(tail -n 5 "$work/daemon.err")"
    { echo "connections=$k"; cat "$work/client.out"; } >> "$work/raw"
    log "$(cat "$work/client.out")"
    field() { sed -n "/^$1 /s/.* $2=\([^ ]*\).*/\1/p" "$work/client.out"; }
    decisions=$(field storm decisions)
    storm_s=$(field storm seconds)
    rate=$(field storm per_second)
    cpu_us=$(awk -v t=$(( after - before )) -v hz="$tick" -v n="$decisions" -v r="$SESSIONS" \
        'BEGIN { printf "%.0f", t / hz * 1e6 / (n + r) }')
    echo "| $SESSIONS | $k | $decisions | $storm_s | $rate | $(field activate median_us) | $(field activate p99_us) | $(field activate max_us) | $(field deactivate max_us) | $cpu_us | $(wc -l < "$work/daemon.err") |" >> "$work/rows"
    stop_tag daemon
done

echo "### Policy at scale on the bus ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line); background CPU load before: ${busy_before}%"
echo "- Private dbus-daemon, a fresh \`mprisd\` per row (its log, one line per decision, to a file); \`bench-policy-client --sessions $SESSIONS --connections K --decisions $DECISIONS --seed $SEED\`"
echo "- Latencies are client-side round trips of blocking calls (µs); daemon CPU is utime+stime over registration and storm, per call"
echo
echo "| sessions | connections | decisions | seconds | decisions/s | Activate median | Activate p99 | Activate worst | Deactivate worst | daemon CPU µs/call | daemon log lines |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
cat "$work/rows"
echo
echo '```'
cat "$work/raw"
echo '```'
