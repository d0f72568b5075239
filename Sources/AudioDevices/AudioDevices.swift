// AudioDevices
