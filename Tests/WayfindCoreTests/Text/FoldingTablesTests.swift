import Testing

@testable import WayfindCLI
@testable import WayfindCore

/// The shape of the generated folding tables, which `FoldingTables` reads without checks:
/// what decoding them at start-up used to verify, now verified once here.
@Suite struct FoldingTablesTests {
    let tables = FoldingTables.shared
    let blockCount = UnicodeTableData.stage2Count >> Int(UnicodeTableData.blockShift)

    @Test func stageOneCoversEveryScalarValueAndNamesExistingBlocks() {
        #expect(UnicodeTableData.stage1Count << Int(UnicodeTableData.blockShift) == 0x110000)
        #expect(UnicodeTableData.stage2Count % (1 << Int(UnicodeTableData.blockShift)) == 0)
        let bad = (0..<UnicodeTableData.stage1Count).filter { Int(tables.stage1[$0]) >= blockCount }
        #expect(bad.isEmpty, "stage-1 entries naming no block: \(bad)")
    }

    @Test func everyEntryHasAClassAndAnExistingForm() {
        let bad = (0..<UnicodeTableData.stage2Count).filter {
            let entry = tables.stage2[$0]
            return entry & 7 > ScalarClass.mark.rawValue || Int(entry >> 3) >= UnicodeTableData.poolCount
        }
        #expect(bad.isEmpty, "bad stage-2 entries at: \(bad)")
    }

    @Test func everyFormIsAtMostSevenBytesOfValidUTF8() {
        #expect(tables.pool[1] == FoldedScalar.empty.rawValue)
        var bad: [Int] = []
        for index in 2..<UnicodeTableData.poolCount {
            let form = FoldedScalar(rawValue: tables.pool[index])
            // Bytes between the last UTF-8 byte and the count byte are zero.
            let unusedBytes: UInt64 = (0x00FF_FFFF_FFFF_FFFF &>> (8 * form.count)) &<< (8 * form.count)
            let unused = form.rawValue & unusedBytes
            let isValid = String(validating: form.bytes, as: UTF8.self) != nil
            if form.count == 0 || form.count > 7 || unused != 0 || !isValid { bad.append(index) }
        }
        #expect(bad.isEmpty, "bad folded forms at: \(bad)")
    }
}
