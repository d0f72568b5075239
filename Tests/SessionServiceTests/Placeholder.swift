import XCTest
