import Foundation

/// NMEA 0183 recordings written by the tests, for gpsfake to replay.
enum NMEALog {
    /// A receiver standing at one place with a 3D fix, one RMC and one GGA sentence a second for
    /// `seconds` seconds from `start` (UTC).
    static func stationary(latitude: Double, longitude: Double, from start: Date, seconds: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let lat = angle(abs(latitude), degreeDigits: 2) + (latitude < 0 ? ",S" : ",N")
        let lon = angle(abs(longitude), degreeDigits: 3) + (longitude < 0 ? ",W" : ",E")
        var text = ""
        for second in 0..<seconds {
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: start + Double(second))
            let time = String(format: "%02d%02d%02d.00", parts.hour!, parts.minute!, parts.second!)
            let date = String(format: "%02d%02d%02d", parts.day!, parts.month!, parts.year! % 100)
            text += sentence("GPRMC,\(time),A,\(lat),\(lon),0.0,0.0,\(date),,,A")
            text += sentence("GPGGA,\(time),\(lat),\(lon),1,09,0.9,12.0,M,40.0,M,,")
        }
        return text
    }

    /// `ddmm.mmmm` (or `dddmm.mmmm`) for a non-negative angle in degrees.
    private static func angle(_ degrees: Double, degreeDigits: Int) -> String {
        let whole = Int(degrees)
        return String(format: "%0\(degreeDigits)d%07.4f", whole, (degrees - Double(whole)) * 60)
    }

    /// `$body*CS\r\n`, CS the XOR of the body's bytes in hexadecimal.
    private static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return "$\(body)*\(String(format: "%02X", checksum))\r\n"
    }
}
