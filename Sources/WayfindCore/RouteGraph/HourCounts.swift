/// A place's visits by local hour of day: 24 counts, hour 0 (midnight to 1 am) first.
///
/// Every visit adds one to the hour it happened in (in the time zone of the machine that
/// recorded it), so a suggestion can favour the places visited at this time of day. A
/// place read from a file without `hours` has all zeros: its visits are not known by
/// hour, and count evenly over the day (see `RouteGraph.habit`).
///
/// The counts are a tuple of 24 `UInt32`s, read and written through its bytes (a
/// homogeneous tuple is laid out as a C array): a value of fixed size, stored inline in a
/// place, with no allocation of its own. (`SIMD32` would be the natural type, but its
/// element-wise operations were not vectorized here and cost a hundred instructions per
/// count; `InlineArray` needs macOS 26.) A count saturates at `UInt32.max`, more visits
/// than any person makes in an hour of the day in a lifetime.
public struct HourCounts: Sendable, Equatable {
    /// The number of counts.
    public static let hoursPerDay = 24

    private typealias Storage = (
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
    )
    private var storage: Storage = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// No visits known by hour.
    public init() {}

    /// The counts of `hours` (24 values, hour 0 first); nil if there are not 24, or one
    /// is negative or above `UInt32.max`.
    public init?(_ hours: [Int]) {
        guard hours.count == Self.hoursPerDay else { return nil }
        for (hour, count) in hours.enumerated() {
            guard let value = UInt32(exactly: count) else { return nil }
            set(hour: hour, to: value)
        }
    }

    public static func == (lhs: HourCounts, rhs: HourCounts) -> Bool {
        withUnsafeBytes(of: lhs.storage) { left in
            withUnsafeBytes(of: rhs.storage) { right in left.elementsEqual(right) }
        }
    }

    /// The count of `hour` (0 to 23).
    @inline(__always)
    private func count(_ hour: Int) -> UInt32 {
        withUnsafeBytes(of: storage) { $0.load(fromByteOffset: hour &* 4, as: UInt32.self) }
    }

    /// The visits in `hour` (0 to 23).
    public subscript(hour: Int) -> Int {
        precondition(hour >= 0 && hour < Self.hoursPerDay, "an hour of the day is 0 to 23")
        return Int(count(hour))
    }

    /// The 24 counts, hour 0 first.
    public var counts: [Int] {
        (0..<Self.hoursPerDay).map { Int(count($0)) }
    }

    /// Whether no visit is known by hour (a file without `hours` for the place).
    public var isEmpty: Bool {
        withUnsafeBytes(of: storage) { bytes in
            var any: UInt64 = 0
            for word in 0..<12 { any |= bytes.load(fromByteOffset: word &* 8, as: UInt64.self) }
            return any == 0
        }
    }

    /// The visits known by hour, in all.
    public var total: UInt64 {
        withUnsafeBytes(of: storage) { bytes in
            var sum: UInt64 = 0
            for hour in 0..<Self.hoursPerDay { sum &+= UInt64(bytes.load(fromByteOffset: hour &* 4, as: UInt32.self)) }
            return sum
        }
    }

    /// The visits in the hours of `window`.
    @inline(__always)
    func total(in window: Window) -> UInt64 {
        withUnsafeBytes(of: storage) { bytes in
            var sum: UInt64 = 0
            var hours = window.hours
            while hours != 0 {
                sum &+= UInt64(bytes.load(fromByteOffset: hours.trailingZeroBitCount &* 4, as: UInt32.self))
                hours &= hours &- 1
            }
            return sum
        }
    }

    /// The visits in the hours at most `radius` hours from `hour`, going round midnight:
    /// radius 2 around hour 0 counts hours 22, 23, 0, 1 and 2.
    func total(within radius: Int, of hour: Int) -> UInt64 {
        total(in: Window(radius: radius, around: hour))
    }

    /// Some hours of the day, as bits (hour 0 the lowest): a suggestion makes its window
    /// once and applies it to every place.
    struct Window {
        fileprivate var hours: UInt32 = 0

        /// The hours at most `radius` hours from `hour`, going round midnight.
        init(radius: Int, around hour: Int) {
            for offset in -radius...radius {
                hours |= 1 << (((hour + offset) % HourCounts.hoursPerDay + HourCounts.hoursPerDay) % HourCounts.hoursPerDay)
            }
        }
    }

    /// Counts one more visit in `hour` (0 to 23).
    mutating func count(hour: Int) {
        let value = count(hour)
        if value != .max { set(hour: hour, to: value + 1) }
    }

    /// Adds another place's counts (two records of one place), saturating.
    mutating func add(_ other: HourCounts) {
        for hour in 0..<Self.hoursPerDay {
            let (sum, overflow) = count(hour).addingReportingOverflow(other.count(hour))
            set(hour: hour, to: overflow ? .max : sum)
        }
    }

    /// Sets the count of `hour` (a reader filling in a record).
    @inline(__always)
    mutating func set(hour: Int, to count: UInt32) {
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: count, toByteOffset: hour &* 4, as: UInt32.self) }
    }
}
