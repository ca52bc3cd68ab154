/// Times and durations as people type them on a command line or in a visit log.
///
///     durations    90   90s   30m   2h   7d   2w        (a bare number is seconds)
///     timestamps   1700000000                         (Unix seconds, years 1970 to 9999)
///                  2023-11-14T22:13:20Z   2023-11-14T23:13:20+01:00
///                  2023-11-14 22:13:20    2023-11-14T22:13   2023-11-14
///
/// ISO 8601 times without an offset are taken as UTC, so an imported log means the
/// same on every machine (there is no time zone database below Foundation).
package enum TimeText {
    /// Seconds per unit letter of a duration.
    static let unitSeconds: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]

    /// The number of seconds in `text`, or nil if it is not a duration ≥ 0.
    package static func duration(_ text: String) -> Int64? {
        var digits = Substring(text)
        var unit: Int64 = 1
        if let last = digits.last, let seconds = unitSeconds[last] {
            unit = seconds
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(digits) else {
            return nil
        }
        let (total, overflow) = value.multipliedReportingOverflow(by: unit)
        return overflow ? nil : total
    }

    /// The times accepted: the years 1970 to 9999 (UTC). Earlier or later is a mistake
    /// (a negative number, a time in milliseconds), and keeps the arithmetic of ages far
    /// from overflow.
    package static let range: ClosedRange<Int64> = 0...253_402_300_799

    /// The Unix time in `text` (seconds, or ISO 8601 as above), or nil; nil too for a
    /// time outside `range`.
    package static func timestamp(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        let time = bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } ? Int64(text) : iso8601(bytes)
        return time.flatMap { range.contains($0) ? $0 : nil }
    }

    /// `YYYY-MM-DD`, then optionally `T` or space, `hh:mm`, optionally `:ss` and a
    /// fraction (ignored), then optionally `Z` or `±hh:mm`/`±hhmm`.
    private static func iso8601(_ bytes: [UInt8]) -> Int64? {
        var index = 0
        func number(_ count: Int) -> Int64? {
            guard index + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + count] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            index += count
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), skip(0x2D), let month = number(2), skip(0x2D), let day = number(2),
            (1...12).contains(month), day >= 1,
            // The first day of the next month is past the last of this one.
            daysFromCivil(year: year, month: month, day: day) < daysFromCivil(year: year, month: month + 1, day: 1)
        else { return nil }
        var seconds = daysFromCivil(year: year, month: month, day: day) * 86_400
        guard index < bytes.count else { return seconds }
        guard skip(0x54) || skip(0x20), let hour = number(2), hour < 24, skip(0x3A), let minute = number(2), minute < 60
        else { return nil }
        seconds += hour * 3600 + minute * 60
        if skip(0x3A) {
            guard let second = number(2), second <= 60 else { return nil }
            seconds += second
            if skip(0x2E) || skip(0x2C) {
                let start = index
                while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
                guard index > start else { return nil }
            }
        }
        if skip(0x5A) {
            return index == bytes.count ? seconds : nil
        }
        guard index < bytes.count else { return seconds }
        let sign: Int64
        if skip(0x2B) { sign = 1 } else if skip(0x2D) { sign = -1 } else { return nil }
        guard let offsetHours = number(2), offsetHours < 24 else { return nil }
        _ = skip(0x3A)
        guard let offsetMinutes = number(2), offsetMinutes < 60, index == bytes.count else { return nil }
        return seconds - sign * (offsetHours * 3600 + offsetMinutes * 60)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
