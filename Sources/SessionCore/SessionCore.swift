// SessionCore — the audio session model and the policy engine of mprisd. Pure Swift, no I/O, no
// clock: every rule of shared/docs/guidelines.md is data or a pure function here, and a test.
//
// Where each rule lives:
//
//   Configuration/  categories, modes, options and their validation (G-CAT-SEMANTIC,
//                   G-CAT-OPTIONS, G-SILENT table); SessionTraits = what arbitration needs.
//   State/          ports, routes and route selection (G-HEADPHONES-IN/OUT, G-ROUTE-PICK),
//                   record permission, system conditions (lock, silent mode, volume, mic mute).
//   Events/         interruption, route change, hint, ducking, volume, media-services events and
//                   PolicyEffect (an event plus its target session(s)).
//   Policy/         PolicyEngine: one deterministic arbiter over all sessions (G-CALLS, G-INT-*,
//                   G-CAT-OPTIONS ducking, lock rule). InterruptionRules holds the pairwise rules;
//                   each PolicyEngine+Feature.swift file is one entry point family.
//   Session/        AudioSystem / AudioSession: the in-process host with AsyncSequence and
//                   callback delivery (a daemon drives PolicyEngine directly instead).
//   Playback/       PlaybackController (what an app does on each event: G-INT-RESUME, G-INT-UI,
//                   G-INT-MIC, G-HEADPHONES-OUT, G-RC-CONTEXT) and AppProfile presets (G-APP-*).
