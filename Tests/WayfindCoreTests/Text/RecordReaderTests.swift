import Foundation
import Testing
import WayfindTestSupport

@testable import WayfindCLI
@testable import WayfindCore

@Suite struct RecordReaderTests {
    /// All records a reader hands out, joined back, and whether it stopped with an error.
    func readAll(_ reader: RecordReader) -> (bytes: [UInt8], error: ReadError?) {
        var bytes: [UInt8] = []
        do {
            while let block = try reader.nextBlock() { bytes += block }
        } catch {
            return (bytes, error)
        }
        return (bytes, nil)
    }

    @Test func everyReadSizeHandsOutTheSameRecordsInWholeLines() {
        let text = Array("alpha\nbeta\n\ngamma delta\nlast".utf8)
        for readSize in 1...20 {
            let reader = text.withUnsafeBufferPointer { RecordReader(bytes: $0, terminator: 0x0A, readSize: readSize) }
            var blocks: [[UInt8]] = []
            while let block = try? reader.nextBlock() {
                blocks.append(Array(block))
                if reader.lastBlockIsUnterminated { #expect(block.last != 0x0A) } else { #expect(block.last == 0x0A) }
            }
            #expect(blocks.flatMap { $0 } == text, "read size \(readSize)")
        }
    }

    @Test func aRecordLongerThanTheLimitIsAnErrorAndOneAtTheLimitIsNot() {
        let limit = 8
        for (text, fails) in [("12345678\nab\n", false), ("123456789\nab\n", true), ("ab\n12345678", false), ("ab\n123456789", true)] {
            for readSize in [1, 3, 8, 9, 64] {
                let bytes = Array(text.utf8)
                let reader = bytes.withUnsafeBufferPointer {
                    RecordReader(bytes: $0, terminator: 0x0A, readSize: readSize, maximumRecordLength: limit)
                }
                let (read, error) = readAll(reader)
                #expect((error == .recordTooLong(limit: limit)) == fails, "\(text) read size \(readSize)")
                if !fails { #expect(read == bytes) }
            }
        }
        #expect(ReadError.recordTooLong(limit: 64 << 20).description == "a line is longer than 64 MiB (the limit)")
    }

    /// A mapped file cut short under the reader: the lost pages read as zeros instead of
    /// raising SIGBUS, and the reader stops with `changedWhileRead`.
    @Test func aMappedFileThatShrinksIsReportedNotFatal() throws {
        let line = Array(repeating: UInt8(ascii: "x"), count: 99) + [0x0A]
        let data = Data(Array(repeating: line, count: 60_000).joined())  // 6 MB: mapped
        let path = try TestFiles.write(data, name: "shrinking.txt")
        let descriptor = try FileDescriptor.openForReading(path)
        defer { descriptor.close() }
        let reader = RecordReader(descriptor, terminator: 0x0A)
        let first = try #require(try reader.nextBlock())
        #expect(first.count >= 1 << 20)
        #expect(truncate(path, 4096) == 0)
        // The next window lies past the new end: reading it faults, and the reader says so
        // instead of handing out zeros.
        #expect(throws: ReadError.changedWhileRead) { try reader.nextBlock() }
        #expect(throws: ReadError.changedWhileRead) { try reader.nextBlock() }
    }

    /// A regular file read without its size (`isRegular`: a walk's file, not `stat`ed):
    /// every byte comes out whatever the size around the first read's and the mapping's
    /// thresholds, and a large file is still mapped (blocks of a mapping's window).
    @Test func aRegularFileOfUnknownSizeIsReadWholeAndMappedWhenLarge() throws {
        let probe = RecordReader.probeSize
        let sizes = [0, 1, 99, probe - 1, probe, probe + 1, 3 * probe + 7, RecordReader.mappingThreshold + 12_345]
        for size in sizes {
            // Lines of 1 to 97 bytes, the last one unterminated when the size says so.
            var bytes = (0..<size).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            var next = 0
            var step = 1
            while next < size {
                bytes[next] = 0x0A
                step = step % 97 + 13
                next += step
            }
            let path = try TestFiles.write(Data(bytes), name: "unknown-size-\(size).txt")
            let descriptor = try FileDescriptor.openRegularFile(path)
            defer { descriptor.close() }
            let reader = RecordReader(descriptor, terminator: 0x0A, isRegular: true)
            var read: [UInt8] = []
            var largest = 0
            while let block = try reader.nextBlock() {
                read += block
                largest = max(largest, block.count)
            }
            #expect(read == bytes, "size \(size)")
            if size >= RecordReader.mappingThreshold { #expect(largest >= RecordReader.defaultMappedWindow, "size \(size)") }
            if size < RecordReader.mappingThreshold { #expect(largest <= RecordReader.defaultReadSize, "size \(size)") }
        }
    }
}
