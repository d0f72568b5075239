/// Float samples to what an ALSA device takes.
enum SampleConversion {
    /// -1…1 to signed 16 bit: × 32768, rounded to nearest, clipped to -32768…32767, little-endian.
    /// The inverse of libsndfile's 16-bit decoding (÷ 32768), so a 16-bit file comes out bit-exact.
    static func s16LE(_ source: UnsafeBufferPointer<Float>, into target: UnsafeMutablePointer<Int16>) {
        for index in source.indices {
            let scaled = (source[index] * 32768).rounded()
            let value: Int16
            if scaled.isNaN {
                value = 0
            } else if scaled >= 32767 {
                value = Int16.max
            } else if scaled <= -32768 {
                value = Int16.min
            } else {
                value = Int16(scaled)
            }
            target[index] = value.littleEndian
        }
    }
}
