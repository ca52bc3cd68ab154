/// Which local hour of the day a time falls in: how visits are counted by hour
/// (`HourCounts`) and what "this time of day" means to a suggestion.
///
/// `system` is the machine's time zone, set by `TZ` as every Unix program's is; tests
/// and replays use a fixed offset, so that they mean the same on every machine.
public struct LocalTimeZone: Sendable {
    /// Seconds east of UTC at a Unix time.
    private let offset: @Sendable (Int64) -> Int

    /// The machine's time zone (`TZ`, else `/etc/localtime`), daylight saving included.
    public static let system = LocalTimeZone { Platform.utcOffset(at: $0) }

    /// Coordinated Universal Time.
    public static let utc = LocalTimeZone.fixed(secondsEastOfUTC: 0)

    /// A zone that is always `seconds` ahead of UTC (negative: behind).
    public static func fixed(secondsEastOfUTC seconds: Int) -> LocalTimeZone {
        LocalTimeZone { _ in seconds }
    }

    private init(offset: @escaping @Sendable (Int64) -> Int) {
        self.offset = offset
    }

    /// The local hour of day, 0 to 23, of the Unix time `time` (any 64-bit value).
    public func hour(at time: Int64) -> Int {
        // Each part reduced to a day first: the sum of any time and offset stays in range.
        let day: Int64 = 86_400
        let secondOfDay = ((time % day + Int64(offset(time)) % day) % day + day) % day
        return Int(secondOfDay / 3600)
    }
}
