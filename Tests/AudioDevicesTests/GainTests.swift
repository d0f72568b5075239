import AudioDevices
import XCTest

final class GainTests: XCTestCase {
    private func applied(_ volume: Double, _ samples: [Float]) -> [Float] {
        var buffer = samples
        buffer.withUnsafeMutableBufferPointer { Gain.apply(volume, to: $0) }
        return buffer
    }

    func testGainScalesLinearly() {
        XCTAssertEqual(applied(0.5, [1, -1, 0.25, 0]), [0.5, -0.5, 0.125, 0])
        XCTAssertEqual(applied(1, [0.3, -0.7]), [0.3, -0.7])
        XCTAssertEqual(applied(0, [0.3, -0.7]), [0, 0])
    }

    func testVolumeIsClampedToZeroToOne() {
        XCTAssertEqual(applied(2, [0.5]), [0.5])
        XCTAssertEqual(applied(-1, [0.5]), [0])
        XCTAssertEqual(applied(.nan, [0.5]), [0])
        XCTAssertEqual(Gain.clamped(0.25), 0.25)
    }
}
