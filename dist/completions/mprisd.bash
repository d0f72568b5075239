# bash completion for mprisd: commands, each command's options and their values, route IDs from
# `mprisd route list`, the wrapped program after `mprisd run ... --`, and the words of an
# `mprisd apps set` rule, player names for `mprisd player pin` from `mprisd players`.
# Installed by scripts/install-user.sh as ~/.local/share/bash-completion/completions/mprisd;
# or: source dist/completions/mprisd.bash. Works without the bash-completion package too.

# The output IDs `mprisd route list` prints (second column after the pick marker), and auto.
_mprisd_route_ids() {
    "${1:-mprisd}" route list 2>/dev/null | awk 'NR > 1 && !/^route:/ { print ($1 == "*") ? $2 : $1 }'
    echo auto
}

# ALSA devices: the usual names, one hw:N per card, and what `aplay -L` knows.
_mprisd_devices() {
    echo default null
    local card
    for card in /proc/asound/card[0-9]*; do
        [[ -d $card ]] && echo "hw:${card##*/card}"
    done
    if [[ $1 == pcm ]] && type -P aplay >/dev/null; then
        aplay -L 2>/dev/null | grep -v '^[[:space:]]'
    fi
}

# The bus names the running daemon lists (`mprisd players --json`), and their short forms.
_mprisd_player_names() {
    "${1:-mprisd}" players --json 2>/dev/null | sed -n 's/.*"busName" *: *"org\.mpris\.MediaPlayer2\.\([^"]*\)".*/\1/p'
}

_mprisd() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    local prev=
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()

    # The command: the first word that is neither an option nor the value of the daemon's --control
    # or --pause-before-sleep.
    local command= at=0 i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --control | --pause-before-sleep | --ignore-players) ((i++)) ;;
            -*) ;;
            *) command=${COMP_WORDS[i]}; at=$i; break ;;
        esac
    done

    local options
    case $command in
        "")
            if [[ $prev == --control ]]; then
                mapfile -t COMPREPLY < <(compgen -W "$(_mprisd_devices)" -- "$cur")
            elif [[ $prev == --pause-before-sleep ]]; then
                mapfile -t COMPREPLY < <(compgen -W "true false" -- "$cur")
            elif [[ $prev == --ignore-players ]]; then
                return
            elif [[ $cur == -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "--control --keep-paused-after-calls --ignore-players --pause-before-sleep --verbose --version --help" -- "$cur")
            else
                mapfile -t COMPREPLY < <(compgen -W "play run status doctor setup apps silent route players player control help" -- "$cur")
            fi
            return
            ;;
        play)
            case $prev in
                --device) mapfile -t COMPREPLY < <(compgen -W "$(_mprisd_devices pcm)" -- "$cur"); return ;;
                --control) mapfile -t COMPREPLY < <(compgen -W "$(_mprisd_devices)" -- "$cur"); return ;;
                --loop) mapfile -t COMPREPLY < <(compgen -W "none track playlist" -- "$cur"); return ;;
                --name | --volume) return ;;
            esac
            if [[ $cur == -* ]]; then
                options="--device --control --name --volume --loop --shuffle --help"
                mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
            else
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            fi
            ;;
        run)
            # After `--`: the wrapped program and its own arguments.
            local dashes=
            for ((i = at + 1; i < COMP_CWORD; i++)); do
                [[ ${COMP_WORDS[i]} == -- ]] && { dashes=$i; break; }
            done
            if [[ -n $dashes ]]; then
                if declare -F _command_offset >/dev/null; then
                    _command_offset $((dashes + 1))
                elif ((COMP_CWORD == dashes + 1)); then
                    mapfile -t COMPREPLY < <(compgen -c -- "$cur")
                else
                    compopt -o filenames 2>/dev/null
                    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
                fi
                return
            fi
            case $prev in
                --category)
                    options="ambient soloAmbient playback record playAndRecord multiRoute audioProcessing"
                    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur"); return ;;
                --mode)
                    options="default voiceChat videoChat gameChat videoRecording measurement moviePlayback"
                    options+=" spokenAudio voicePrompt"
                    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur"); return ;;
                --name) return ;;
            esac
            options="--category --mode --mix --duck --interrupt-spoken --notify-others --name --verbose --help --"
            mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
            ;;
        status|doctor)
            mapfile -t COMPREPLY < <(compgen -W "--json --help" -- "$cur")
            ;;
        setup)
            if [[ $prev == --desktop ]]; then
                mapfile -t COMPREPLY < <(compgen -W "gnome kde xfce sway i3 hyprland" -- "$cur")
            else
                mapfile -t COMPREPLY < <(compgen -W "--desktop --dry-run --write-config --undo --help" -- "$cur")
            fi
            ;;
        apps)
            # The operands so far: ACTION, then MATCH NAME, then the rule's words.
            local -a operands=()
            for ((i = at + 1; i < COMP_CWORD; i++)); do
                [[ ${COMP_WORDS[i]} == -* ]] || operands+=("${COMP_WORDS[i]}")
            done
            if [[ $cur == -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "--json --help" -- "$cur")
            elif ((${#operands[@]} == 0)); then
                mapfile -t COMPREPLY < <(compgen -W "list set unset" -- "$cur")
            elif [[ ${operands[0]} == set || ${operands[0]} == unset ]] && ((${#operands[@]} == 1)); then
                mapfile -t COMPREPLY < <(compgen -W "app binary flatpak" -- "$cur")
            elif [[ ${operands[0]} == set ]] && ((${#operands[@]} == 3)); then
                options="call prompt screenReader systemSound alert game media music mixing ignore"
                options+=" ambient soloAmbient playback record playAndRecord multiRoute audioProcessing"
                mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
            elif [[ ${operands[0]} == set ]] && ((${#operands[@]} > 3)); then
                # After a category: its mode and options.
                case ${operands[3]} in
                    ambient | soloAmbient | playback | record | playAndRecord | multiRoute | audioProcessing)
                        options="default voiceChat videoChat gameChat videoRecording measurement moviePlayback"
                        options+=" spokenAudio voicePrompt mixWithOthers duckOthers interruptSpokenAudioAndMixWithOthers"
                        options+=" allowBluetooth allowBluetoothA2DP allowNetworkReceivers defaultToSpeaker"
                        options+=" overrideMutedMicrophoneInterruption"
                        mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
                        ;;
                esac
            fi
            ;;
        players)
            mapfile -t COMPREPLY < <(compgen -W "--json --help" -- "$cur")
            ;;
        player)
            if [[ $cur == -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "--help" -- "$cur")
            elif ((COMP_CWORD == at + 1)); then
                mapfile -t COMPREPLY < <(compgen -W "pin unpin next" -- "$cur")
            elif ((COMP_CWORD == at + 2)) && [[ $prev == pin ]]; then
                mapfile -t COMPREPLY < <(compgen -W "$(_mprisd_player_names "${COMP_WORDS[0]/#\~/$HOME}")" -- "$cur")
            fi
            ;;
        control)
            local -a operands=()
            for ((i = at + 1; i < COMP_CWORD; i++)); do
                [[ ${COMP_WORDS[i]} == --* ]] || operands+=("${COMP_WORDS[i]}")
            done
            if [[ $cur == --* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "--verbose --help" -- "$cur")
            elif ((${#operands[@]} == 0)); then
                options="play pause play-pause next previous stop seek position volume"
                mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
            fi
            ;;
        silent)
            if [[ $cur == -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "--help" -- "$cur")
            elif ((COMP_CWORD == at + 1)); then
                mapfile -t COMPREPLY < <(compgen -W "on off" -- "$cur")
            fi
            ;;
        route)
            if [[ $prev == --control ]]; then
                mapfile -t COMPREPLY < <(compgen -W "$(_mprisd_devices)" -- "$cur")
                return
            fi
            # The action: the first operand after `route` (skipping --control and its value).
            local action=
            for ((i = at + 1; i < COMP_CWORD; i++)); do
                case ${COMP_WORDS[i]} in
                    --control) ((i++)) ;;
                    -*) ;;
                    *) action=${COMP_WORDS[i]}; break ;;
                esac
            done
            if [[ $cur == -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "--control --help" -- "$cur")
            elif [[ -z $action ]]; then
                mapfile -t COMPREPLY < <(compgen -W "list use" -- "$cur")
            elif [[ $action == use && $prev == use ]]; then
                mapfile -t COMPREPLY < <(compgen -W "$(_mprisd_route_ids "${COMP_WORDS[0]/#\~/$HOME}")" -- "$cur")
            fi
            ;;
        help)
            if ((COMP_CWORD == at + 1)); then
                mapfile -t COMPREPLY < <(compgen -W "play run status doctor setup apps silent route players player control daemon config" -- "$cur")
            fi
            ;;
    esac
}

complete -F _mprisd mprisd
