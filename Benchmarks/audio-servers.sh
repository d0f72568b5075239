# audio-servers.sh — sourced after common.sh (and after start_bus) by every benchmark that needs an
# audio server: a real one per run, headless, in $work, as Tests/TestSupport starts them. The one
# place a benchmark starts PulseAudio or PipeWire.
#
#   source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
#   source "$here/audio-servers.sh"
#   start_bus; start_server pulseaudio    # or pipewire
#
# Provides: start_server KIND (start_pulseaudio | start_pipewire), stop_server, server_version,
# server_pid TAG (the server process of a spawn tag, which runs it under `timeout`), wait_socket
# PATH [SECONDS], pactl_ok, run_ns PID, settle PID [SECONDS] (until the daemon's CPU time stays the
# same for 2 s), wait_stream_count N [SECONDS], stream_buffer_ms. Every server process is a spawn
# tag (pulseaudio; pipewire, wireplumber, pipewire-pulse: cleaned up on exit) and runs under
# `timeout` (SERVER_LIFETIME seconds, default 3600).
#
# Where clients find the server: PulseAudio listens on $work/pulse-server/native and PULSE_SERVER
# is exported (the daemon, pactl and ALSA's `pulse` device follow PULSE_SERVER); pipewire-pulse
# listens where every desktop has it, $XDG_RUNTIME_DIR/pulse/native, and PULSE_SERVER is unset, so
# the daemon finds it by itself. PULSE_CLIENTCONFIG turns autospawn off for every client. Both
# servers keep a null sink `null-sink` (44.1 kHz, paced by the server's clock) as the default sink;
# both remember stream volumes per role (PulseAudio with module-stream-restore, WirePlumber with
# restore-stream), as on a desktop. WirePlumber's state lives in $work/pw-state and is wiped at
# each start. Neither server registers on the benchmark's bus.
# SERVER_MIC=1 adds a null source `null-source` as the default source (a microphone that records
# silence, as Tests/TestSupport's servers have): capture streams then record it, not a monitor.
# PipeWire's null sink and source are the tests' own fragments, Tests/Fixtures/PipeWire.
# SERVER_LOOPBACK=1 (PulseAudio) adds a null source looped back into the sink, as
# Tests/TestSupport/PulseServer.swift has: a sink that is never idle keeps its latency low, so a
# player's own buffer, not the sink's, is what cpu-play.sh measures.
SERVER_LIFETIME=${SERVER_LIFETIME:-3600}
SERVER_MIC=${SERVER_MIC:-0}
SERVER_LOOPBACK=${SERVER_LOOPBACK:-0}
server_kind=''

pactl_ok() { timeout 5 pactl info > /dev/null 2>&1; }

run_ns() { # run_ns PID: nanoseconds on CPU, all threads (schedstat)
    cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ n += $1 } END { printf "%d", n }'
}
settle() { # settle PID [SECONDS]: until its CPU time stays the same for 2 s (at most SECONDS, default 60)
    local last now i
    last=$(run_ns "$1")
    for (( i = 0; i < ${2:-60} / 2; i++ )); do
        sleep 2
        now=$(run_ns "$1")
        [[ $now == "$last" ]] && return 0
        last=$now
    done
    log "warning: the daemon did not settle within ${2:-60} s"
}
wait_stream_count() { # wait_stream_count N [SECONDS]: until pactl lists N sink inputs (default 120 s)
    local i n=-1
    for (( i = 0; i < ${2:-120} * 10; i++ )); do
        n=$(timeout 10 pactl list short sink-inputs 2>/dev/null | wc -l)
        [[ $n == "$1" ]] && return 0
        sleep 0.1
    done
    die "the server shows $n sink inputs, not $1"
}

wait_socket() { # wait_socket PATH [SECONDS]: until a client can connect to the unix socket PATH
    python3 - "$1" "${2:-20}" <<'PY' || die "nothing accepts connections on $1 within ${2:-20} s"
import socket, sys, time
path, limit = sys.argv[1], float(sys.argv[2])
deadline = time.monotonic() + limit
while time.monotonic() < deadline:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path); sys.exit(0)
    except OSError:
        time.sleep(0.01)
    finally:
        s.close()
sys.exit(1)
PY
}

wait_server_ready() { # pactl answers and null-sink is the default sink (20 s)
    local i
    for (( i = 0; i < 400; i++ )); do
        if pactl_ok && [[ $(timeout 5 pactl get-default-sink 2>/dev/null) == null-sink ]] &&
            { [[ $SERVER_MIC != 1 ]] || [[ $(timeout 5 pactl get-default-source 2>/dev/null) == null-source ]]; }; then return 0; fi
        sleep 0.05
    done
    die "$server_kind: not ready within 20 s (pactl info / default sink null-sink / default source); logs in $work/*.err"
}

client_config() {
    mkdir -p "$work/pulse-home"
    printf 'autospawn = no\ncookie-file = %s\n' "$work/pulse-home/cookie" > "$work/client.conf"
    export PULSE_CLIENTCONFIG=$work/client.conf
    unset PULSE_SINK PULSE_LATENCY_MSEC || true  # the user's choices, not the benchmark's
}

start_pulseaudio() {
    server_kind=pulseaudio
    client_config
    mkdir -p "$work/pulse-server"
    {
        echo "load-module module-stream-restore"
        echo "load-module module-null-sink sink_name=null-sink rate=44100"
        if [[ $SERVER_LOOPBACK == 1 ]]; then
            echo "suspend-sink null-sink 1"
            echo "load-module module-null-source source_name=mprisd_silence rate=44100"
            echo "load-module module-loopback source=mprisd_silence sink=null-sink latency_msec=40 source_dont_move=true sink_dont_move=true"
            echo "suspend-sink null-sink 0"
        fi
        echo "set-default-sink null-sink"
        if [[ $SERVER_MIC == 1 ]]; then
            echo "load-module module-null-source source_name=null-source"
            echo "set-default-source null-source"
        fi
        echo "load-module module-native-protocol-unix socket=$work/pulse-server/native auth-anonymous=1"
    } > "$work/server.pa"
    # No bus for the server (it must not register on the benchmark's bus), its own HOME and state.
    spawn pulseaudio env HOME="$work/pulse-home" XDG_CONFIG_HOME="$work/pulse-home/.config" \
        PULSE_RUNTIME_PATH="$work/pulse-server/runtime" PULSE_STATE_PATH="$work/pulse-home/state" \
        DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/no-bus DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/no-bus \
        timeout -s KILL "$SERVER_LIFETIME" pulseaudio -n -F "$work/server.pa" --daemonize=no --exit-idle-time=-1 \
        --use-pid-file=no --system=no --disallow-exit --log-target=stderr --log-level=warning
    export PULSE_SERVER=unix:$work/pulse-server/native
    wait_socket "$work/pulse-server/native"
    wait_server_ready
}

start_pipewire() {
    server_kind=pipewire
    client_config
    unset PULSE_SERVER
    local fragments=$work/pw-config/pipewire/pipewire.conf.d fixtures=$root/Tests/Fixtures/PipeWire
    rm -rf "$work/pw-state" "$fragments" && mkdir -p "$work/pw-state" "$fragments" "$work/pw-home"
    # The tests' own null sink (and source) fragments (Tests/TestSupport/PipeWireServer+Files.swift).
    cp "$fixtures/10-null-sink.conf" "$fragments/"
    if [[ $SERVER_MIC == 1 ]]; then cp "$fixtures/11-null-source.conf" "$fragments/"; fi
    local env=(env HOME="$work/pw-home" XDG_CONFIG_HOME="$work/pw-config" XDG_STATE_HOME="$work/pw-state"
               XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" PIPEWIRE_RUNTIME_DIR="$XDG_RUNTIME_DIR"
               DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/no-bus)
    spawn pipewire "${env[@]}" timeout -s KILL "$SERVER_LIFETIME" pipewire
    # WirePlumber exits if it starts before pipewire's socket exists (a start-up race).
    wait_socket "$XDG_RUNTIME_DIR/pipewire-0"
    spawn wireplumber "${env[@]}" timeout -s KILL "$SERVER_LIFETIME" wireplumber
    spawn pipewire-pulse "${env[@]}" timeout -s KILL "$SERVER_LIFETIME" pipewire-pulse
    # No libpulse client before pipewire-pulse's own socket exists: it would create
    # $XDG_RUNTIME_DIR/pulse first and pipewire-pulse would fail ("mkdir …/pulse: File exists").
    wait_socket "$XDG_RUNTIME_DIR/pulse/native"
    wait_server_ready
}

start_server() { # start_server pulseaudio|pipewire
    case $1 in
        pulseaudio) start_pulseaudio ;;
        pipewire) start_pipewire ;;
        *) die "unknown server '$1' (pulseaudio or pipewire)" ;;
    esac
    log "$1 ready: $(server_version)"
}

stop_server() { # stops whichever server runs (clients first see it go)
    local tag
    for tag in pipewire-pulse wireplumber pipewire pulseaudio; do stop_tag "$tag"; done
}

server_pid() { # server_pid TAG: the server process itself (the spawned pid is its `timeout`)
    local pid
    pid=$(cat /proc/"${pids[$1]}"/task/*/children 2>/dev/null | awk '{ print $1; exit }')
    [[ -n $pid ]] || die "$1 runs no server process"
    echo "$pid"
}

# stream_buffer_ms: the server-side buffer of the one playback stream besides any loopback
# (`pactl list sink-inputs`: "Buffer Latency"), in ms; "?" if none is found.
stream_buffer_ms() {
    pactl list sink-inputs 2>/dev/null | awk '
        /^Sink Input #/ { loop = 0 }
        /module-loopback|Loopback/ { loop = 1 }
        /Buffer Latency:/ { if (!loop) v = $3 }
        END { if (v == "") print "?"; else printf "%.0f", v / 1000 }'
}

server_version() { # "pulseaudio 16.1" / "PulseAudio (on PipeWire 0.3.65) 15.0.0"
    timeout 5 pactl info 2>/dev/null | awk -F': ' '$1 == "Server Name" { n = $2 } $1 == "Server Version" { v = $2 } END { print n, v }'
}
