/// A place's visits by local hour of day: 24 counts, hour 0 (midnight to 1 am) first.
///
/// Every visit adds one to the hour it happened in (in the time zone of the machine that
/// recorded it), so a suggestion can favour the places visited at this time of day. A
/// place read from a file without `hours` has all zeros: its visits are not known by
/// hour, and count evenly over the day (see `RouteGraph.habit`).
///
/// The counts are one SIMD vector (lanes 24 to 31 stay zero): a value of fixed size,
/// stored inline in a place, with no allocation of its own. A count saturates at
/// `UInt32.max`, more visits than any person makes in an hour of the day in a lifetime.
public struct HourCounts: Sendable, Equatable {
    /// The number of counts.
    public static let hoursPerDay = 24

    private var lanes = SIMD32<UInt32>.zero

    /// No visits known by hour.
    public init() {}

    /// The counts of `hours` (24 values, hour 0 first); nil if there are not 24, or one
    /// is negative or above `UInt32.max`.
    public init?(_ hours: [Int]) {
        guard hours.count == Self.hoursPerDay else { return nil }
        for (hour, count) in hours.enumerated() {
            guard let value = UInt32(exactly: count) else { return nil }
            lanes[hour] = value
        }
    }

    /// The visits in `hour` (0 to 23).
    public subscript(hour: Int) -> Int {
        Int(lanes[hour])
    }

    /// The 24 counts, hour 0 first.
    public var counts: [Int] {
        (0..<Self.hoursPerDay).map { Int(lanes[$0]) }
    }

    /// Whether no visit is known by hour (a file without `hours` for the place).
    public var isEmpty: Bool { lanes == .zero }

    /// The visits known by hour, in all.
    public var total: UInt64 {
        var sum: UInt64 = 0
        for hour in 0..<Self.hoursPerDay { sum &+= UInt64(lanes[hour]) }
        return sum
    }

    /// The visits in the hours at most `radius` hours from `hour`, going round midnight:
    /// radius 2 around hour 0 counts hours 22, 23, 0, 1 and 2.
    func total(within radius: Int, of hour: Int) -> UInt64 {
        var sum: UInt64 = 0
        for offset in -radius...radius {
            sum &+= UInt64(lanes[((hour + offset) % Self.hoursPerDay + Self.hoursPerDay) % Self.hoursPerDay])
        }
        return sum
    }

    /// Counts one more visit in `hour` (0 to 23).
    mutating func count(hour: Int) {
        if lanes[hour] != .max { lanes[hour] += 1 }
    }

    /// Adds another place's counts (two records of one place), saturating.
    mutating func add(_ other: HourCounts) {
        let sum = lanes &+ other.lanes
        lanes = sum.replacing(with: .max, where: sum .< lanes)
    }

    /// Sets the count of `hour` (a reader filling in a record).
    mutating func set(hour: Int, to count: UInt32) {
        lanes[hour] = count
    }
}
