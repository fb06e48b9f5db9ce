using Folio.Server.Http;
using Folio.Storage.Documents.Compression;

namespace Folio.Server.Databases;

public sealed partial class DatabaseRegistry
{
    /// <summary>The compression every database without its own <see cref="DocumentsCompressionSetting"/> writes with.</summary>
    public DocumentCompressionOptions ServerCompression => _compression;

    /// <summary>The database's own compression setting, or null while it follows the server's.</summary>
    /// <param name="name">The name, in any casing.</param>
    /// <returns>The setting.</returns>
    /// <exception cref="FolioHttpException">404 when there is no such database.</exception>
    public DocumentsCompressionSetting? GetDocumentsCompression(ReadOnlySpan<char> name)
    {
        DatabaseEntry entry = TryGet(name, out DatabaseEntry? found) ? found : throw NotFound(name);
        lock (entry.Gate)
            return entry.Removed ? throw NotFound(name) : DocumentsCompressionSetting.Load(entry.Directory);
    }

    /// <summary>
    /// Keeps the database's own compression setting and, when it is open, writes new bodies under it from the next
    /// write on. Under the database's gate, so an open racing it reads either the old file or the new one and a
    /// loaded instance always ends with the new choice.
    /// </summary>
    /// <param name="name">The name, in any casing.</param>
    /// <param name="setting">The setting to keep.</param>
    /// <exception cref="FolioHttpException">404 when there is no such database.</exception>
    public void SetDocumentsCompression(ReadOnlySpan<char> name, DocumentsCompressionSetting setting)
    {
        ArgumentNullException.ThrowIfNull(setting);
        DatabaseEntry entry = TryGet(name, out DatabaseEntry? found) ? found : throw NotFound(name);
        lock (entry.Gate)
        {
            if (entry.Removed)
                throw NotFound(name);
            setting.Save(entry.Directory);
            entry.Instance?.Store.Compression.Choose(setting.CompressesAny, setting.CompressedSet(), setting.UncompressedSet());
        }
        DatabaseLog.DocumentsCompressionSet(_logger, entry.Name, setting.CompressAllCollections, setting.Collections.Count);
    }

    /// <summary>The options a database's store opens with: its own setting over the server's, or the server's.</summary>
    private DocumentCompressionOptions CompressionFor(DatabaseEntry entry) =>
        DocumentsCompressionSetting.Load(entry.Directory) is { } own ? own.Apply(_compression) : _compression;
}
