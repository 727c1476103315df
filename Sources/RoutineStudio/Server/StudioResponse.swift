import HTTPTypes
import Hummingbird

/// Answers of the studio's kinds: the page's embedded files, JSON and plain text.
enum StudioResponse {
    /// The page, built into the binary: no file beside it is ever read.
    static let assets: [String: (bytes: [UInt8], type: String)] = [
        "index.html": (PackageResources.index_html, "text/html; charset=utf-8"),
        "studio.css": (PackageResources.studio_css, "text/css; charset=utf-8"),
        "app.js": (PackageResources.app_js, "text/javascript; charset=utf-8"),
        "api.js": (PackageResources.api_js, "text/javascript; charset=utf-8"),
        "canvas.js": (PackageResources.canvas_js, "text/javascript; charset=utf-8"),
        "graphstats.js": (PackageResources.graphstats_js, "text/javascript; charset=utf-8"),
        "forms.js": (PackageResources.forms_js, "text/javascript; charset=utf-8"),
        "keyboard.js": (PackageResources.keyboard_js, "text/javascript; charset=utf-8"),
        "play.js": (PackageResources.play_js, "text/javascript; charset=utf-8"),
        "dom.js": (PackageResources.dom_js, "text/javascript; charset=utf-8"),
        "today.js": (PackageResources.today_js, "text/javascript; charset=utf-8"),
        "run.js": (PackageResources.run_js, "text/javascript; charset=utf-8"),
        "days.js": (PackageResources.days_js, "text/javascript; charset=utf-8"),
        "daysdraw.js": (PackageResources.daysdraw_js, "text/javascript; charset=utf-8"),
        "dayshabit.js": (PackageResources.dayshabit_js, "text/javascript; charset=utf-8"),
        "dayview.js": (PackageResources.dayview_js, "text/javascript; charset=utf-8"),
        "timer.js": (PackageResources.timer_js, "text/javascript; charset=utf-8"),
        "run.css": (PackageResources.run_css, "text/css; charset=utf-8"),
        "days.css": (PackageResources.days_css, "text/css; charset=utf-8"),
        "dayview.css": (PackageResources.dayview_css, "text/css; charset=utf-8"),
    ]

    static func asset(_ name: String) -> Response? {
        guard let asset = assets[name] else { return nil }
        return Response(
            status: .ok, headers: [.contentType: asset.type],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }

    /// JSON with where the answer's time went (`StudioPhases`), as a `Server-Timing` header.
    static func json(_ bytes: [UInt8], phases: StudioPhases) -> Response {
        var response = json(bytes)
        if !phases.phases.isEmpty { response.headers[HTTPField.Name("Server-Timing")!] = phases.header }
        return response
    }

    static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func text(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}
