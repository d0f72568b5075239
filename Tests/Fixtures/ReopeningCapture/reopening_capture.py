#!/usr/bin/python3
"""A call app's microphone that it closes and opens again, as Zoom or a browser does when the user
switches input device during a call: a libpulse client (libpulse-simple, through ctypes) that
records the default source under an application name, and on `reopen MS` from stdin frees its
capture stream and creates a new one MS milliseconds later, in the same process.

    reopening_capture.py NAME

stdout: `open 1` once the first stream records, `open N` after each reopen, `closed` at the end.
stdin: `reopen MS`, or `stop` (end of input stops too).
"""

import ctypes
import sys
import threading
import time

PA_STREAM_RECORD = 2
PA_SAMPLE_S16LE = 3


class SampleSpec(ctypes.Structure):
    _fields_ = [("format", ctypes.c_int), ("rate", ctypes.c_uint32), ("channels", ctypes.c_uint8)]


class BufferAttr(ctypes.Structure):
    _fields_ = [("maxlength", ctypes.c_uint32), ("tlength", ctypes.c_uint32), ("prebuf", ctypes.c_uint32),
                ("minreq", ctypes.c_uint32), ("fragsize", ctypes.c_uint32)]


simple = ctypes.CDLL("libpulse-simple.so.0")
pulse = ctypes.CDLL("libpulse.so.0")
simple.pa_simple_new.restype = ctypes.c_void_p
simple.pa_simple_new.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p,
                                 ctypes.POINTER(SampleSpec), ctypes.c_void_p, ctypes.POINTER(BufferAttr),
                                 ctypes.POINTER(ctypes.c_int)]
simple.pa_simple_read.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int)]
simple.pa_simple_free.argtypes = [ctypes.c_void_p]
pulse.pa_strerror.restype = ctypes.c_char_p

NAME = sys.argv[1].encode()
SPEC = SampleSpec(PA_SAMPLE_S16LE, 8000, 1)
FRAGMENT = 160  # 10 ms: a read returns often enough to notice a request at once
ATTR = BufferAttr(0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, FRAGMENT)


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def open_stream():
    error = ctypes.c_int(0)
    stream = simple.pa_simple_new(None, NAME, PA_STREAM_RECORD, None, b"capture", ctypes.byref(SPEC), None,
                                  ctypes.byref(ATTR), ctypes.byref(error))
    if not stream:
        sys.stderr.write("pa_simple_new: %s\n" % pulse.pa_strerror(error.value).decode())
        sys.exit(1)
    return stream


requests = []  # "reopen MS" and "stop", from stdin; the recording thread carries them out
lock = threading.Lock()


def read_requests():
    for line in sys.stdin:
        with lock:
            requests.append(line.strip())
    with lock:
        requests.append("stop")


threading.Thread(target=read_requests, daemon=True).start()
stream = open_stream()
opened = 1
say("open 1")
buffer = ctypes.create_string_buffer(FRAGMENT)
error = ctypes.c_int(0)
while True:
    if simple.pa_simple_read(stream, buffer, FRAGMENT, ctypes.byref(error)) < 0:
        sys.stderr.write("pa_simple_read: %s\n" % pulse.pa_strerror(error.value).decode())
        sys.exit(1)
    with lock:
        pending = requests[:]
        requests.clear()
    for request in pending:
        if request == "stop":
            simple.pa_simple_free(stream)
            say("closed")
            sys.exit(0)
        if request.startswith("reopen"):
            gap = int(request.split()[1]) if len(request.split()) > 1 else 0
            simple.pa_simple_free(stream)
            if gap:
                time.sleep(gap / 1000)
            stream = open_stream()
            opened += 1
            say("open %d" % opened)
