import CSodium
import Foundation
import WhereaboutsCore

/// OwnTracks messages of every `_type` the apps send, taken from the OwnTracks booklet's examples
/// (`docs/guide/quicksetup.md`, `docs/features/waypoints.md`, `card.md`, `docs/tech/json.md`), with
/// the documented fields the examples leave out added to the location, and libsodium to seal them as
/// the apps do.
enum OwnTracksBooklet {
    /// The quicksetup location (`jane/nokia`) with every documented field and one no one documents.
    static let location = """
        {"_type":"location","SSID":"mywifi","BSSID":"b0:f2:8:45:94:33","alt":154,"batt":53,"bs":2,"conn":"w","created_at":1706858150,\
        "lat":48.856826,"lon":2.292713,"tid":"j1","tst":1706858149,"vel":0,"acc":14,"vac":3,"cog":275,"p":101.325,"m":2,"t":"u",\
        "topic":"owntracks/jane/nokia","inregions":["Home"],"inrids":["f7676c"],"poi":"Eiffel","tag":"trip","motionactivities":["walking"],\
        "x_unknown":{"nested":[1,"two",null,true]}}
        """
    /// A second location, an hour later, that goes encrypted.
    static let laterLocation = """
        {"_type":"location","lat":48.86043,"lon":2.29401,"tid":"j1","tst":1706861749,"acc":9,"batt":52,"conn":"m","t":"p",\
        "topic":"owntracks/jane/nokia","inregions":[],"inrids":[]}
        """
    /// The waypoints page's transition.
    static let transition = """
        {"_type":"transition","desc":"My favorite coffee shop (Delaville)","event":"enter","lat":48.87069,"lon":2.34916,"rid":"f7676c",\
        "tid":"j1","tst":1707057574,"wtst":1610104395}
        """
    /// The waypoints page's waypoint, its radius and time as strings, as the page shows them.
    static let waypoint = """
        {"_type":"waypoint","desc":"My favorite coffee shop (Delaville)","lat":48.87069,"lon":2.34916,"rad":"50","tst":"1385997757",\
        "rid":"f7676c","wtst":1610104395}
        """
    /// The waypoints page's `setWaypoints` list, as the app exports it.
    static let waypoints = """
        {"_type":"waypoints","_creator":"booklet","waypoints":[{"_type":"waypoint","tst":1708625557,"rid":"my-region-id-1","desc":"home",\
        "rad":100,"lat":30.0,"lon":40.0},{"_type":"waypoint","tst":1708625558,"rid":"my-region-id-2","desc":"work","rad":100,"lat":30.1,"lon":40.1}]}
        """
    /// The card page's card, with the tid json.md requires.
    static let card = #"{"_type":"card","tid":"j1","name":"Jane Jolie","face":"iV1CFEVkMhmCIKBUKh3ghAAAAABJRU5ErkJggg=="}"#
    /// John's card, for the friends example of the Recorder's README ("Friends in HTTP mode").
    static let friendCard = #"{"_type":"card","tid":"JA","name":"John Doe","face":"/9j/4AAQSkZJRgABAQAAAQABAAD"}"#
    /// John's location in that example (`john/android`), with the members a friend's `/pub` answer carries.
    static let friendLocation = """
        {"_type":"location","tid":"JA","lat":48.95833,"lon":2.39523,"tst":1706860000,"vel":4,"alt":61,"cog":90,"acc":8,"vac":2,\
        "batt":80,"topic":"owntracks/john/android"}
        """
    /// A last will, as json.md describes it.
    static let lwt = #"{"_type":"lwt","tst":1706856299}"#
    /// A status message with json.md's iOS elements.
    static let status = """
        {"_type":"status","iOS":{"altimeterAuthorizationStatus":"authorized","altimeterIsRelativeAltitudeAvailable":true,\
        "backgroundRefreshStatus":"available","deviceIdentifierForVendor":"CB6B2F2E-9C0E-4E4C-8E7B-4D0B5A1B2C3D"}}
        """

    /// `message` with the booklet's user `jane` in its topic replaced by `user`, so tests sharing one
    /// database never publish one topic from two devices.
    static func topic(_ message: String, user: String) -> String {
        message.replacingOccurrences(of: "owntracks/jane/", with: "owntracks/\(user)/")
    }

    /// `plaintext` sealed as the apps seal it: `{"_type":"encrypted","data": base64(nonce + secretbox)}`
    /// under the passphrase zero-padded to 32 bytes.
    static func encrypted(_ plaintext: String, passphrase: String, nonceBytes: Int = Int(crypto_secretbox_noncebytes())) -> String {
        #"{"_type":"encrypted","data":"\#(sealed(Data(plaintext.utf8), passphrase: passphrase, nonceBytes: nonceBytes))"}"#
    }

    /// The base64 of nonce + `crypto_secretbox_easy(plaintext)`; `nonceBytes` below 24 cuts the nonce short.
    static func sealed(_ plaintext: Data, passphrase: String, nonceBytes: Int = Int(crypto_secretbox_noncebytes())) -> String {
        precondition(sodium_init() >= 0)
        var key = [UInt8](repeating: 0, count: Int(crypto_secretbox_keybytes()))
        for (index, byte) in passphrase.utf8.prefix(key.count).enumerated() { key[index] = byte }
        var nonce = [UInt8](repeating: 0, count: Int(crypto_secretbox_noncebytes()))
        randombytes_buf(&nonce, nonce.count)
        let message = Array(plaintext)
        var box = [UInt8](repeating: 0, count: message.count + Int(crypto_secretbox_macbytes()))
        _ = crypto_secretbox_easy(&box, message, UInt64(message.count), nonce, key)
        return Data(Array(nonce.prefix(nonceBytes)) + (nonceBytes < nonce.count ? [] : box)).base64EncodedString()
    }

    /// The plaintext of a sealed answer, or `nil` when it does not open with `passphrase`.
    static func opened(_ base64: String, passphrase: String) -> Data? {
        precondition(sodium_init() >= 0)
        var key = [UInt8](repeating: 0, count: Int(crypto_secretbox_keybytes()))
        for (index, byte) in passphrase.utf8.prefix(key.count).enumerated() { key[index] = byte }
        guard let sealed = Data(base64Encoded: base64).map(Array.init), sealed.count >= 40 else { return nil }
        var plaintext = [UInt8](repeating: 0, count: sealed.count - 40)
        let status = sealed.withUnsafeBufferPointer {
            crypto_secretbox_open_easy(&plaintext, $0.baseAddress! + 24, UInt64(sealed.count - 24), $0.baseAddress!, key)
        }
        return status == 0 ? Data(plaintext) : nil
    }

    /// A JSON value as canonical text, to compare values field by field.
    static func canonical(_ value: Any?) -> String {
        guard let value else { return "absent" }
        return String(decoding: (try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }

    /// A JSON object's members.
    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }
}
