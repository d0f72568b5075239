// RemoteControl
