import ArgumentParser
import Foundation
import Logging
import WhereaboutsMQTT
import WhereaboutsServer

/// `whereabouts-server serve`. Every option falls back to an environment variable, then to the
/// default of ``ServerSettings``.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the HTTP API until SIGTERM or SIGINT.")

    @Option(help: "Address to listen on (env WHEREABOUTS_HOST).") var host: String?
    @Option(help: "Port; 0 picks a free one (env WHEREABOUTS_PORT).") var port: Int?
    @OptionGroup var database: DatabaseOption

    @Option(help: "The admin token, which reads every device and queues commands (env WHEREABOUTS_ADMIN_TOKEN).") var adminToken: String?
    @Option(help: "Requests per second per device; 0 turns the limit off (env WHEREABOUTS_RATE_LIMIT; default 50).") var rateLimit: Double?
    @Option(help: "Largest request body in bytes; larger ones get 413 unread (env WHEREABOUTS_MAX_BODY_BYTES; default 1048576).")
    var maxBodyBytes: Int?
    @Option(
        help:
            "The most locations one /api/0/locations answer holds; a range holding more is refused, naming from, to and limit (env WHEREABOUTS_MAX_RECORDER_LOCATIONS; default 100000)."
    ) var maxRecorderLocations: Int?
    @Flag(help: "Serve /metrics without the admin token (env WHEREABOUTS_PUBLIC_METRICS=1).") var publicMetrics = false
    @Option(help: "Seconds from a request's first byte to the end of its header, else 408 (env WHEREABOUTS_HEADER_TIMEOUT; default 10).")
    var headerTimeout: Double?
    @Option(help: "Seconds from a request's header to the end of its body, else 408 (env WHEREABOUTS_BODY_TIMEOUT; default 60).")
    var bodyTimeout: Double?
    @Option(help: "Seconds a connection may stay open with no request under way (env WHEREABOUTS_IDLE_TIMEOUT; default 60).")
    var idleTimeout: Double?
    @Option(help: "Connections served at once; more are answered 503 (env WHEREABOUTS_MAX_CONNECTIONS; default 1000).") var maxConnections:
        Int?
    @Option(
        help:
            "Connections served at once to one client address; 0: no such limit; not applied with --trust-forwarded-for (env WHEREABOUTS_MAX_CONNECTIONS_PER_ADDRESS; default 100)."
    ) var maxConnectionsPerAddress: Int?
    @Option(
        help:
            "Failed logins per client address and minute before 429; 0 turns throttling off (env WHEREABOUTS_LOGIN_FAILURES_PER_MINUTE; default 10)."
    ) var loginFailuresPerMinute: Int?
    @Flag(
        help:
            "Throttle logins by the last X-Forwarded-For address and mark cookies Secure when X-Forwarded-Proto is https; only behind a reverse proxy (env WHEREABOUTS_TRUST_FORWARDED_FOR=1)."
    ) var trustForwardedFor = false
    @Option(
        help:
            "Seconds a command sent with one answer is leased to it before another answer may carry it again (env WHEREABOUTS_COMMAND_LEASE; default 30)."
    ) var commandLease: Double?
    @Option(
        help:
            "Map tiles of the day page, with {z}, {x}, {y} (and {s}); empty for the SVG drawing alone (env WHEREABOUTS_TILE_URL; default OpenStreetMap's)."
    ) var tileURL: String?
    @Option(help: "The tile provider's attribution, shown on the map (env WHEREABOUTS_TILE_ATTRIBUTION).") var tileAttribution: String?
    @Option(
        help:
            "The folder with Leaflet's leaflet.js, leaflet.css and images/ (env WHEREABOUTS_LEAFLET_DIR; default Debian's /usr/share/javascript/leaflet)."
    ) var leafletDir: String?
    @Option(
        help:
            "Also store the OwnTracks messages of an MQTT broker: mqtt[s]://[user[:password]@]host[:port][?client_id=ID&topics=FILTER,…&share=GROUP&ca=FILE]; mqtts speaks TLS, trusting the system or ca=; topics by default owntracks/+/+ and its /event, /info, /cmd, /waypoint, /waypoints and /status subtopics; share= splits the messages among the instances of one group, each with a client_id of its own (env WHEREABOUTS_MQTT)."
    ) var mqtt: String?
    @Option(
        help:
            "trace, debug, info (an access-log line per request), notice, warning, error or critical (env WHEREABOUTS_LOG_LEVEL; default info)."
    ) var logLevel: String?

    func run() async throws {
        let host = host ?? Self.environment["WHEREABOUTS_HOST"] ?? "127.0.0.1"
        let port = try Self.value(port, "WHEREABOUTS_PORT", default: 8080)
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) must be 0...65535") }
        let defaults = ServerSettings()
        let rate = try Self.value(rateLimit, "WHEREABOUTS_RATE_LIMIT", default: defaults.rateLimit)
        guard rate.isFinite, rate >= 0 else { throw ValidationError("--rate-limit \(rate) must be a non-negative number") }
        let settings: ServerSettings
        do {
            settings = try ServerSettings(
                maxBodyBytes: Self.value(maxBodyBytes, "WHEREABOUTS_MAX_BODY_BYTES", default: defaults.maxBodyBytes), rateLimit: rate,
                rateBurst: max(1, rate * 2), adminToken: adminToken ?? Self.environment["WHEREABOUTS_ADMIN_TOKEN"],
                publicMetrics: publicMetrics || Self.environment["WHEREABOUTS_PUBLIC_METRICS"] == "1",
                headerTimeout: Self.value(headerTimeout, "WHEREABOUTS_HEADER_TIMEOUT", default: defaults.headerTimeout),
                bodyTimeout: Self.value(bodyTimeout, "WHEREABOUTS_BODY_TIMEOUT", default: defaults.bodyTimeout),
                idleTimeout: Self.value(idleTimeout, "WHEREABOUTS_IDLE_TIMEOUT", default: defaults.idleTimeout),
                maxConnections: Self.value(maxConnections, "WHEREABOUTS_MAX_CONNECTIONS", default: defaults.maxConnections),
                maxConnectionsPerAddress: Self.value(
                    maxConnectionsPerAddress, "WHEREABOUTS_MAX_CONNECTIONS_PER_ADDRESS", default: defaults.maxConnectionsPerAddress),
                loginFailuresPerMinute: Self.value(
                    loginFailuresPerMinute, "WHEREABOUTS_LOGIN_FAILURES_PER_MINUTE", default: defaults.loginFailuresPerMinute),
                trustForwardedFor: trustForwardedFor || Self.environment["WHEREABOUTS_TRUST_FORWARDED_FOR"] == "1",
                commandLease: Self.value(commandLease, "WHEREABOUTS_COMMAND_LEASE", default: defaults.commandLease),
                tileURL: tileURL ?? Self.environment["WHEREABOUTS_TILE_URL"] ?? defaults.tileURL,
                tileAttribution: tileAttribution ?? Self.environment["WHEREABOUTS_TILE_ATTRIBUTION"] ?? defaults.tileAttribution,
                leafletDirectory: leafletDir ?? Self.environment["WHEREABOUTS_LEAFLET_DIR"] ?? defaults.leafletDirectory,
                maxRecorderLocations: Self.value(
                    maxRecorderLocations, "WHEREABOUTS_MAX_RECORDER_LOCATIONS", default: defaults.maxRecorderLocations)
            ).validated()
        } catch let error as ServerError {
            throw ValidationError("\(error)")
        }
        let levelText = logLevel ?? Self.environment["WHEREABOUTS_LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: levelText) else {
            throw ValidationError(
                "--log-level \(levelText.prefix(40)) is not a level; use one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        var logger = Logger(label: "whereabouts-server")
        logger.logLevel = level
        let subscription: MQTTSubscription?
        do {
            subscription = try (mqtt ?? Self.environment["WHEREABOUTS_MQTT"]).map { try MQTTSettings.parse($0) }
        } catch let error as ServerError {
            throw ValidationError("\(error)")
        }
        let url = try database.url()
        try await ServerApp.withStorage(url, logger: logger) { [logger] storage in
            try await ServerApp.serve(storage: storage, host: host, port: port, settings: settings, mqtt: subscription, logger: logger) {
                bound in
                FileHandle.standardOutput.write(
                    Data("whereabouts-server listening on http://\(host):\(bound) with \(storage.kind) storage\n".utf8))
            }
        }
        logger.info("stopped")
    }

    private static let environment = ProcessInfo.processInfo.environment

    /// The option's value, else the environment variable's, else `fallback`.
    /// - Throws: `ValidationError` when the variable is set but not a `T`.
    private static func value<T: LosslessStringConvertible>(_ option: T?, _ variable: String, default fallback: T) throws -> T {
        if let option { return option }
        guard let text = environment[variable] else { return fallback }
        guard let value = T(text) else {
            throw ValidationError("\(variable)=\(text) is not a \(T.self == Int.self ? "whole number" : "number")")
        }
        return value
    }
}
