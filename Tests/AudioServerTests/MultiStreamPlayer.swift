import Foundation
import Synchronization
import TestSupport

/// A real libpulse client that opens many playback streams on ONE connection (no stock tool
/// does: paplay opens one): PulseAudio accepts at most 64 connections per socket ("Too many
/// connections (64), dropping incoming connection"), so 200 paplay processes cannot all play
/// there. Built from C with `cc -lpulse` once per test run; each stream plays silence and is
/// named `media.name=<prefix>-<n>`, with the given properties.
enum MultiStreamPlayer {
    private static let built = Mutex<Result<String, TestSupportError>?>(nil)

    /// Starts a player with `count` streams.
    static func start(count: Int, prefix: String, properties: [String: String],
                      environment: [String: String]) throws -> BackgroundProcess {
        let program = try executable()
        let arguments = ["\(count)", prefix] + properties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return try BackgroundProcess(name: "multistream", "/usr/bin/timeout", ["-s", "KILL", "300", program] + arguments,
                                     environment: environment)
    }

    private static func executable() throws -> String {
        try built.withLock { state in
            if state == nil { state = build() }
            return try state!.get()
        }
    }

    private static func build() -> Result<String, TestSupportError> {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mprisd-multistream-\(UUID().uuidString.prefix(8))")
        let source = directory.appendingPathComponent("multistream.c")
        let program = directory.appendingPathComponent("multistream")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Self.source.write(to: source, atomically: true, encoding: .utf8)
            let cc = try BackgroundProcess(name: "cc", "/usr/bin/cc", ["-O1", "-o", program.path, source.path, "-lpulse"])
            guard cc.waitUntilExitBlocking() == 0 else { return .failure(TestSupportError("cc failed: \(cc.standardError)")) }
            return .success(program.path)
        } catch {
            return .failure(TestSupportError("cannot build the multi-stream player: \(error)"))
        }
    }

    private static let source = #"""
    #include <pulse/pulseaudio.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>

    static int count; static const char *prefix; static char **props; static int nprops;
    static char silence[4096];

    static void write_cb(pa_stream *s, size_t n, void *u) {
        while (n > 0) { size_t k = n < sizeof silence ? n : sizeof silence; pa_stream_write(s, silence, k, NULL, 0, PA_SEEK_RELATIVE); n -= k; }
    }

    static void state_cb(pa_context *c, void *u) {
        pa_context_state_t st = pa_context_get_state(c);
        if (st == PA_CONTEXT_FAILED || st == PA_CONTEXT_TERMINATED) { fprintf(stderr, "context: %s\n", pa_strerror(pa_context_errno(c))); exit(1); }
        if (st != PA_CONTEXT_READY) return;
        pa_sample_spec spec = { PA_SAMPLE_S16LE, 8000, 2 };
        for (int i = 0; i < count; i++) {
            pa_proplist *p = pa_proplist_new();
            char name[256]; snprintf(name, sizeof name, "%s-%d", prefix, i);
            pa_proplist_sets(p, PA_PROP_MEDIA_NAME, name);
            for (int j = 0; j < nprops; j++) pa_proplist_setp(p, props[j]);
            pa_stream *s = pa_stream_new_with_proplist(c, name, &spec, NULL, p);
            pa_proplist_free(p);
            if (!s) { fprintf(stderr, "stream %d: %s\n", i, pa_strerror(pa_context_errno(c))); exit(1); }
            pa_stream_set_write_callback(s, write_cb, NULL);
            pa_buffer_attr attr = { (uint32_t)-1, 3200, (uint32_t)-1, (uint32_t)-1, (uint32_t)-1 };
            if (pa_stream_connect_playback(s, NULL, &attr, PA_STREAM_ADJUST_LATENCY, NULL, NULL) < 0) {
                fprintf(stderr, "connect %d: %s\n", i, pa_strerror(pa_context_errno(c))); exit(1);
            }
        }
    }

    int main(int argc, char **argv) {
        if (argc < 3) return 64;
        count = atoi(argv[1]); prefix = argv[2]; props = argv + 3; nprops = argc - 3;
        pa_mainloop *m = pa_mainloop_new();
        pa_proplist *p = pa_proplist_new();
        for (int j = 0; j < nprops; j++) pa_proplist_setp(p, props[j]);
        pa_context *c = pa_context_new_with_proplist(pa_mainloop_get_api(m), "multistream", p);
        pa_proplist_free(p);
        pa_context_set_state_callback(c, state_cb, NULL);
        if (pa_context_connect(c, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) { fprintf(stderr, "connect: %s\n", pa_strerror(pa_context_errno(c))); return 1; }
        int r; pa_mainloop_run(m, &r);
        return r;
    }
    """#
}
