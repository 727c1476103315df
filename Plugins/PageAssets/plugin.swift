import Foundation
import PackagePlugin

/// Embeds the studio's page: every file under the target's `Page/` folder becomes one entry of a
/// generated table, keyed by its path in the folder, so that adding a file to the page needs no
/// second edit anywhere. The folder is listed at each build, so a new file runs the tool again.
@main
struct PageAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let page = target.directoryURL.appending(path: "Page")
        let output = context.pluginWorkDirectoryURL.appending(path: "PageAssets.swift")
        let files = try pageFiles(under: page)
        return [
            .buildCommand(
                displayName: "Embedding the studio's page (\(files.count) files)",
                executable: try context.tool(named: "page-assets").url,
                arguments: [page.path(percentEncoded: false), output.path(percentEncoded: false)]
                    + files.map { $0.path(percentEncoded: false) },
                inputFiles: files,
                outputFiles: [output])
        ]
    }

    /// The regular files under `folder`, in a stable order; hidden files are left out.
    func pageFiles(under folder: URL) throws -> [URL] {
        guard
            let walk = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in walk where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }
}
