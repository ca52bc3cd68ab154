#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The machine's time zone, as the C library knows it from `TZ` (or `/etc/localtime`).
extension Platform {
    /// How many seconds the local time is ahead of UTC at the Unix time `time` (negative
    /// west of Greenwich); 0 when the C library cannot tell (a time beyond its range).
    package static func utcOffset(at time: Int64) -> Int {
        var seconds = time_t(truncatingIfNeeded: time)
        var broken = tm()
        guard localtime_r(&seconds, &broken) != nil else { return 0 }
        return Int(broken.tm_gmtoff)
    }
}
