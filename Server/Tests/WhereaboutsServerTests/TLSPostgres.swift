import Foundation
import WhereaboutsTestSupport

/// A PostgreSQL cluster of a test's own, with TLS on under a certificate the test makes with
/// openssl: an authority (`ca.pem`) signs a certificate for `localhost`, and the cluster refuses
/// connections without TLS. Started by ``start()``, stopped by ``stop()``.
final class TLSPostgres: Sendable {
    let folder: URL
    let port: Int
    /// The folder of PostgreSQL's programs.
    let binaries: String

    /// The PEM file of the authority that signed the server's certificate.
    var authority: String { folder.appendingPathComponent("ca.pem").path }

    private init(folder: URL, port: Int, binaries: String) {
        self.folder = folder
        self.port = port
        self.binaries = binaries
    }

    /// A `postgres://` URL of the cluster with `query` appended.
    func url(database: String = "postgres", host: String = "localhost", _ query: String) -> String {
        "postgres://whereabouts@\(host):\(port)/\(database)?\(query)"
    }

    /// The folder of the newest installed PostgreSQL's programs, when its server and openssl are
    /// installed (`.ci/run` installs both).
    static let installed: String? = {
        let binaries = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?.sorted {
            $0.compare($1, options: .numeric) == .orderedAscending
        }.last.map { "/usr/lib/postgresql/\($0)/bin" }
        guard let binaries, FileManager.default.isExecutableFile(atPath: binaries + "/initdb"),
            FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
        else { return nil }
        return binaries
    }()
    /// Why a TLS PostgreSQL test is skipped: the condition of its `.enabled(if:)` trait.
    static let missing =
        "PostgreSQL's server or openssl is not installed (apt-get install postgresql openssl; .ci/run installs them): the TLS PostgreSQL tests are skipped"

    /// Makes the certificates, initialises and starts the cluster.
    /// - Throws: where PostgreSQL's server or openssl is not installed (tests check ``installed`` in
    ///   their `.enabled(if:)` trait first), or when the cluster does not start.
    static func start() async throws -> TLSPostgres {
        guard let binaries = installed else { throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: missing]) }
        let folder = temporaryFolder("tls-pg")
        let output = folder.appendingPathComponent("start.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let status = try await runProcess(
            "/bin/bash", ["-c", script],
            environment: ProcessInfo.processInfo.environment.merging(["DIR": folder.path, "PGBIN": binaries]) { $1 },
            standardOutput: try FileHandle(forWritingTo: output), standardError: .nullDevice)
        let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        guard status == 0, let port = text.split(separator: "\n").last.flatMap({ Int($0.dropFirst("port ".count)) }) else {
            await TLSPostgres(folder: folder, port: 0, binaries: binaries).stop()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the TLS PostgreSQL cluster did not start: \(text)"])
        }
        return TLSPostgres(folder: folder, port: port, binaries: binaries)
    }

    /// Stops the cluster at once and removes its folder.
    func stop() async {
        _ = try? await runProcess(
            "/bin/bash", ["-c", Self.asPostgres + #"; $AS_PG "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate stop"#],
            environment: ProcessInfo.processInfo.environment.merging(["DIR": folder.path, "PGBIN": binaries]) { $1 })
        try? FileManager.default.removeItem(at: folder)
    }

    /// Sets `$AS_PG`, which runs the rest of a line as the `postgres` user when the tests run as root
    /// (PostgreSQL refuses to run as root), and as is otherwise.
    private static let asPostgres = #"AS_PG=""; if [ "$(id -u)" -eq 0 ]; then AS_PG="runuser -u postgres --"; fi"#

    /// Certificates, `initdb`, `pg_hba.conf` allowing TLS connections only, and `pg_ctl start` on the
    /// first free port from 56400; prints `port N` last. It first closes the descriptors above 2 that
    /// Foundation's `Process` leaves open: the server would inherit them, and `waitUntilExit` waits
    /// until every holder has closed them.
    private static let script = """
        set -euo pipefail
        for fd in $(ls /proc/$$/fd); do if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi; done
        cd "$DIR"
        openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=whereabouts-test-authority 2>/dev/null
        openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=localhost 2>/dev/null
        printf 'subjectAltName=DNS:localhost\\n' > server.ext
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile server.ext 2>/dev/null
        chmod 600 server.key
        \(asPostgres)
        if [ -n "$AS_PG" ]; then chown -R postgres "$DIR"; fi
        $AS_PG "$PGBIN/initdb" -D "$DIR/data" -A trust -U whereabouts >/dev/null
        printf 'local all all trust\\nhostssl all all 127.0.0.1/32 trust\\nhostnossl all all 127.0.0.1/32 reject\\n' > data/pg_hba.conf
        if [ -n "$AS_PG" ]; then chown postgres data/pg_hba.conf; fi
        port=56400
        until $AS_PG "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w start \\
            -o "-p $port -k $DIR -c listen_addresses=127.0.0.1 -c ssl=on -c ssl_cert_file=$DIR/server.pem -c ssl_key_file=$DIR/server.key" >/dev/null; do
            port=$((port + 1))
            [ "$port" -gt 56440 ] && { cat "$DIR/log"; exit 1; }
        done
        echo "port $port"
        """
}

/// Runs `body` with a TLS PostgreSQL cluster of its own, stopped afterwards; its tests are enabled
/// only where ``TLSPostgres/installed``.
func withTLSPostgres(_ body: (TLSPostgres) async throws -> Void) async throws {
    let cluster = try await TLSPostgres.start()
    do {
        try await body(cluster)
    } catch {
        await cluster.stop()
        throw error
    }
    await cluster.stop()
}
