# pulse-server.sh — sourced after common.sh: start_pulse starts a private real-time PulseAudio the
# way Tests/TestSupport/PulseServer.swift does (`pulseaudio -n -F conf
# --daemonize=no`, module-null-sink paced by the server's clock, no D-Bus) and exports
# PULSE_SERVER/PULSE_CLIENTCONFIG so that ALSA's `pulse` device, pactl and libpulse clients use it.
# LOOPBACK=1 adds cpu-play.sh's null-source loopback (keeps the sink's latency low).
start_pulse() {
    pulse=$work/pulse
    mkdir -p "$pulse/home" "$pulse/runtime"
    chmod 700 "$pulse/runtime"
    {
        echo "load-module module-null-sink sink_name=mprisd_null rate=44100"
        if [[ ${LOOPBACK:-0} == 1 ]]; then
            echo "suspend-sink mprisd_null 1"
            echo "load-module module-null-source source_name=mprisd_silence rate=44100"
            echo "load-module module-loopback source=mprisd_silence sink=mprisd_null latency_msec=40 source_dont_move=true sink_dont_move=true"
            echo "suspend-sink mprisd_null 0"
        fi
        echo "set-default-sink mprisd_null"
        echo "load-module module-native-protocol-unix socket=$pulse/native auth-anonymous=1"
    } > "$pulse/server.pa"
    echo "autospawn = no" > "$pulse/client.conf"
    spawn pulse env HOME="$pulse/home" XDG_RUNTIME_DIR="$pulse/runtime" XDG_CONFIG_HOME="$pulse/home/.config" \
        PULSE_RUNTIME_PATH="$pulse/runtime/pulse" PULSE_STATE_PATH="$pulse/home/state" \
        DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/mprisd-no-session-bus \
        DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/mprisd-no-system-bus \
        pulseaudio -n -F "$pulse/server.pa" --daemonize=no --exit-idle-time=-1 --use-pid-file=no --system=no \
        --disallow-exit --log-target=stderr --log-level=warning
    local i
    for (( i = 0; i < 200; i++ )); do
        [[ -S $pulse/native ]] && break
        kill -0 "${pids[pulse]}" 2>/dev/null || die "pulseaudio exited: $(cat "$work/pulse.err")"
        sleep 0.05
    done
    [[ -S $pulse/native ]] || die "pulseaudio made no socket in 10 s"
    export PULSE_SERVER=unix:$pulse/native PULSE_CLIENTCONFIG=$pulse/client.conf
    unset PULSE_SINK PULSE_LATENCY_MSEC || true
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
