# audio-servers.sh — sourced after common.sh (and after start_bus) by the benchmarks of issue 14:
# a real audio server per run, headless, in $work, as Tests/TestSupport starts them.
#
#   source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
#   source "$(dirname "${BASH_SOURCE[0]}")/audio-servers.sh"
#   start_bus; start_server pulseaudio    # or pipewire
#
# Provides: start_server KIND (start_pulseaudio | start_pipewire), stop_server, server_version,
# wait_socket PATH [SECONDS], pactl_ok, run_ns PID, settle PID [SECONDS] (until the daemon's CPU
# time stays the same for 2 s), wait_stream_count N [SECONDS]. Every server process is a spawn tag (cleaned up on exit)
# and runs under `timeout` (SERVER_LIFETIME seconds, default 3600).
#
# Where clients find the server: PulseAudio listens on $work/pulse-server/native and PULSE_SERVER
# is exported (the daemon follows PULSE_SERVER); pipewire-pulse listens where every desktop has it,
# $XDG_RUNTIME_DIR/pulse/native, and PULSE_SERVER is unset, so the daemon finds it by itself.
# PULSE_CLIENTCONFIG turns autospawn off for every client. Both servers keep a null sink
# `null-sink` as the default sink; both remember stream volumes per role (PulseAudio with
# module-stream-restore, WirePlumber with restore-stream), as on a desktop. WirePlumber's state
# lives in $work/pw-state and is wiped at each start.
# SERVER_MIC=1 adds a null source `null-source` as the default source (a microphone that records
# silence, as Tests/TestSupport's servers have): capture streams then record it, not a monitor.
SERVER_LIFETIME=${SERVER_LIFETIME:-3600}
SERVER_MIC=${SERVER_MIC:-0}
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
}

start_pulseaudio() {
    server_kind=pulseaudio
    client_config
    mkdir -p "$work/pulse-server"
    cat > "$work/server.pa" <<PA
load-module module-stream-restore
load-module module-null-sink sink_name=null-sink
set-default-sink null-sink
$( [[ $SERVER_MIC == 1 ]] && printf 'load-module module-null-source source_name=null-source\nset-default-source null-source' )
load-module module-native-protocol-unix socket=$work/pulse-server/native auth-anonymous=1
PA
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
    rm -rf "$work/pw-state" && mkdir -p "$work/pw-state" "$work/pw-config/pipewire/pipewire.conf.d" "$work/pw-home"
    cat > "$work/pw-config/pipewire/pipewire.conf.d/10-null-sink.conf" <<'CONF'
context.objects = [
    { factory = adapter
      args = {
        factory.name = support.null-audio-sink
        node.name = "null-sink"
        node.description = "Null Output"
        media.class = Audio/Sink
        audio.position = [ FL FR ]
        monitor.channelmix = true
        object.linger = true
      }
    }
CONF
    [[ $SERVER_MIC == 1 ]] && cat >> "$work/pw-config/pipewire/pipewire.conf.d/10-null-sink.conf" <<'CONF'
    { factory = adapter
      args = {
        factory.name = support.null-audio-sink
        node.name = "null-source"
        node.description = "Null Input"
        media.class = Audio/Source/Virtual
        audio.position = [ FL FR ]
        object.linger = true
      }
    }
CONF
    echo ']' >> "$work/pw-config/pipewire/pipewire.conf.d/10-null-sink.conf"
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

server_version() { # "pulseaudio 16.1" / "PulseAudio (on PipeWire 0.3.65) 15.0.0"
    timeout 5 pactl info 2>/dev/null | awk -F': ' '$1 == "Server Name" { n = $2 } $1 == "Server Version" { v = $2 } END { print n, v }'
}
