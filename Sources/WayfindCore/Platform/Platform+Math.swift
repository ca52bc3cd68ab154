#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few libm functions the gazetteer's distances need, so that Places/ stays free of
/// the C library.
extension Platform {
    /// sin² x.
    @inline(__always)
    public static func sinSquared(_ x: Double) -> Double {
        let s = Glibc.sin(x)
        return s * s
    }

    /// cos x.
    @inline(__always)
    public static func cos(_ x: Double) -> Double { Glibc.cos(x) }

    /// asin x.
    @inline(__always)
    public static func asin(_ x: Double) -> Double { Glibc.asin(x) }

    /// log2 x.
    @inline(__always)
    public static func log2(_ x: Double) -> Double { Glibc.log2(x) }
}
