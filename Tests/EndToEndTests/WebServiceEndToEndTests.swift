import Foundation
import Testing
import WayfindTestSupport

/// magickey-cgi behind a real web server, with real clients: lighttpd (Debian's) on a
/// loopback port with examples/web/lighttpd.conf, as the README shows it; geopy's ArcGIS
/// geocoder; and the search page of examples/web in headless Chromium through selenium.
/// Each test is skipped, saying what is missing, where its part is not installed
/// (`.ci/run` installs them all).
@Suite struct WebServiceEndToEndTests {
    static let lighttpd =
        TestProcess.executable("lighttpd") ?? ["/usr/sbin/lighttpd"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let chromium = TestProcess.executable("chromium")
    static let chromedriver = TestProcess.executable("chromedriver")
    static func pythonHas(_ module: String) -> Bool {
        guard let python = TestProcess.executable("python3") else { return false }
        return (try? TestProcess.run(python, ["-c", "import \(module)"], timeout: 60).status) == 0
    }
    static let hasGeopy = pythonHas("geopy")
    static let hasSelenium = pythonHas("selenium")
    static let web = Repository.root.appendingPathComponent("examples/web")
    static let scripts = Repository.fixtures.appendingPathComponent("web")

    /// A running lighttpd serving examples/web and the geocoder; stopped by `stop`.
    struct Server: Sendable {
        let pid: pid_t
        let port: Int
        var base: String { "http://127.0.0.1:\(port)" }
        /// SIGKILL: a process started from a test thread may have SIGTERM blocked, and
        /// lighttpd has nothing to save.
        func stop() { kill(pid, SIGKILL) }
    }

    /// `body`'s result with a server running, on a thread of its own (it blocks on
    /// sockets and processes: see `onThreadOfItsOwn`).
    static func withServer<T: Sendable>(_ body: @escaping @Sendable (Server) throws -> T) async throws -> T {
        try await onThreadOfItsOwn {
            let server = try startServer()
            defer { server.stop() }
            return try body(server)
        }
    }

    /// Starts lighttpd on a free loopback port, with the README's configuration: a
    /// top-level file that sets the port, the page's folder and the magickey-cgi link,
    /// and includes examples/web/lighttpd.conf. lighttpd binds its port, then goes into
    /// the background and writes its pid: listening once the command is done.
    static func startServer() throws -> Server {
        let folder = try TestFiles.directory()
        var failure = ""
        for attempt in 0..<20 {
            let port = 20_000 + Int.random(in: 0..<20_000) + attempt
            let config = """
                server.document-root = "\(web.path)"
                server.bind = "127.0.0.1"
                server.port = \(port)
                server.errorlog = "\(folder.path)/error.log"
                server.pid-file = "\(folder.path)/lighttpd.pid"
                mimetype.assign = (".html" => "text/html; charset=utf-8")
                var.magickey_cgi = "\(Binaries.path(of: "magickey-cgi"))"
                include "\(web.path)/lighttpd.conf"

                """
            let path = folder.appendingPathComponent("lighttpd.conf")
            try config.write(to: path, atomically: true, encoding: .utf8)
            spawnAndWait(lighttpd!, ["-f", path.path])
            let pidText = try? String(contentsOf: folder.appendingPathComponent("lighttpd.pid"), encoding: .utf8)
            if let pid = pid_t(pidText?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""), kill(pid, 0) == 0 {
                return Server(pid: pid, port: port)
            }
            failure = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        }
        throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "lighttpd did not start: \(failure)"])
    }

    /// Runs `path` and waits for it, with posix_spawn and waitpid: Foundation's
    /// `Process` does not see a daemon's parent exit here (it stays a zombie, and the
    /// wait never ends), and hands it the test thread's blocked signals.
    static func spawnAndWait(_ path: String, _ arguments: [String]) {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, nil, &attributes, argv, environ) == 0 else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// An HTTP/1.0 request to 127.0.0.1:`port`: the status and the body.
    static func get(port: Int, _ target: String, method: String = "GET", body: String? = nil) throws -> (status: Int, body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var request = "\(method) \(target) HTTP/1.0\r\nHost: 127.0.0.1\r\n"
        if let body {
            request += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        } else {
            request += "\r\n"
        }
        _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            response += buffer[..<n]
        }
        let text = String(decoding: response, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let status = Int(parts[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    static let service = "/arcgis/rest/services/World/GeocodeServer"

    @Test(.enabled(if: lighttpd != nil, "lighttpd is not installed (apt-get install lighttpd): the web server tests are skipped"))
    func lighttpdServesTheGeocoderAtArcGISsPaths() async throws {
        try await Self.withServer { server in
            let suggest = try Self.get(port: server.port, Self.service + "/suggest?text=par&maxSuggestions=1&f=json")
            #expect(suggest.status == 200)
            #expect(suggest.body.hasPrefix(#"{"suggestions":[{"text":"Paris, Île-de-France, France","magicKey":""#))
            let find = try Self.get(
                port: server.port, Self.service + "/findAddressCandidates", method: "POST", body: "SingleLine=wien&maxLocations=1")
            #expect(find.status == 200)
            #expect(find.body.contains(#""address":"Vienna, Wien, Austria","location":{"x":16.37208,"y":48.20849}"#))
            let description = try Self.get(port: server.port, Self.service + "?f=pjson")
            #expect(description.body.contains("\"capabilities\": \"Geocode,ReverseGeocode,Suggest\""))
            let bad = try Self.get(port: server.port, Self.service + "/suggest?text=par&file=/etc/passwd")
            #expect(bad.status == 400)
            #expect(bad.body.contains(#""details":["unknown parameter 'file' for suggest"]"#))
            let page = try Self.get(port: server.port, "/index.html")
            #expect(page.status == 200)
            #expect(page.body.contains("arcgis/rest/services/World/GeocodeServer"))
        }
    }

    @Test(
        .enabled(if: lighttpd != nil, "lighttpd is not installed (apt-get install lighttpd): geopy's test is skipped"),
        .enabled(if: hasGeopy, "python3 with geopy is not installed (pip install geopy, as .ci/run does): geopy's test is skipped"))
    func geopysArcGISGeocoderGeocodesAndReverses() async throws {
        let r = try await Self.withServer { server in
            try TestProcess.run(
                TestProcess.executable("python3")!,
                [Self.scripts.appendingPathComponent("geopy-check.py").path, "127.0.0.1:\(server.port)"],
                timeout: 120)
        }
        #expect(r.stderr == "")
        #expect(
            r.lines == [
                "Paris, Île-de-France, France\t48.85341\t2.3488", "São Paulo, Brazil\t-23.5475\t-46.63611",
                "Paris, Île-de-France, France\t48.85341\t2.3488", "Sydney, New South Wales, Australia\t-33.86785\t151.20732", "12", "None",
            ])
    }

    @Test(
        .enabled(if: lighttpd != nil, "lighttpd is not installed (apt-get install lighttpd): the browser test is skipped"),
        .enabled(
            if: chromium != nil && chromedriver != nil,
            "chromium or chromedriver is not installed (apt-get install chromium chromium-driver): the browser test is skipped"),
        .enabled(
            if: hasSelenium, "python3 with selenium is not installed (pip install selenium, as .ci/run does): the browser test is skipped"))
    func aBrowserTypesParSeesParisAndReadsItsCoordinates() async throws {
        let home = try TestFiles.directory().path
        let r = try await Self.withServer { server in
            try TestProcess.run(
                TestProcess.executable("python3")!,
                [
                    Self.scripts.appendingPathComponent("browser-check.py").path, server.base + "/index.html", Self.chromium!,
                    Self.chromedriver!,
                ],
                environment: ProcessInfo.processInfo.environment.merging(["HOME": home]) { $1 }, timeout: 180)
        }
        #expect(r.status == 0, "\(r.stderr)")
        let parts = r.out.components(separatedBy: "\n\n")
        #expect(parts.first?.split(separator: "\n").first == "Paris, Île-de-France, France")
        #expect(parts.dropFirst().first == "Paris, Île-de-France, France\n48.85341, 2.3488\n")
    }
}
