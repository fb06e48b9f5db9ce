using System.Text.Json;

namespace Folio.Server.Backup;

/// <summary>
/// <c>manifest.json</c> of a backup directory: the database it came from and its files in the order restore applies
/// them. It is replaced whole (written beside, flushed, renamed over) after a file is complete, so a backup that
/// stops half-way leaves the manifest naming only complete files.
/// </summary>
public sealed class BackupManifest
{
    /// <summary>The manifest's file name inside a backup directory.</summary>
    public const string FileName = "manifest.json";

    /// <summary>The format this server writes and reads.</summary>
    public const int CurrentFormat = 1;

    /// <summary>Creates a manifest.</summary>
    /// <param name="database">The database backed up.</param>
    /// <param name="files">Its files, full backup first.</param>
    public BackupManifest(string database, IReadOnlyList<BackupFile> files)
    {
        Database = database;
        Files = files;
    }

    /// <summary>The name of the database backed up.</summary>
    public string Database { get; }

    /// <summary>The files, in the order restore applies them.</summary>
    public IReadOnlyList<BackupFile> Files { get; }

    /// <summary>The manifest of <paramref name="directory"/>, or null when it has none.</summary>
    /// <exception cref="BackupException">The manifest is unreadable, of another format, or its files do not chain.</exception>
    public static BackupManifest? TryRead(string directory)
    {
        string path = Path.Combine(directory, FileName);
        if (!File.Exists(path))
            return null;
        try
        {
            using JsonDocument json = JsonDocument.Parse(File.ReadAllBytes(path));
            JsonElement root = json.RootElement;
            int format = root.GetProperty("Format").GetInt32();
            if (format != CurrentFormat)
                throw new BackupException($"{path} is format {format}; this server reads format {CurrentFormat}.");
            var files = new List<BackupFile>();
            foreach (JsonElement file in root.GetProperty("Files").EnumerateArray())
            {
                files.Add(new BackupFile(
                    SafeName(file.GetProperty("Name").GetString()!, path),
                    Enum.Parse<BackupKind>(file.GetProperty("Kind").GetString()!),
                    file.GetProperty("FromEtag").GetInt64(),
                    file.GetProperty("ToEtag").GetInt64(),
                    file.GetProperty("Documents").GetInt64(),
                    file.GetProperty("Deletes").GetInt64(),
                    file.GetProperty("Indexes").GetInt32(),
                    file.GetProperty("Subscriptions").GetInt32(),
                    file.GetProperty("Bytes").GetInt64(),
                    file.GetProperty("XxHash64").GetString()!,
                    file.GetProperty("CreatedAt").GetDateTime()));
            }

            var manifest = new BackupManifest(root.GetProperty("Database").GetString()!, files);
            manifest.CheckChain(path);
            return manifest;
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException or ArgumentException or FormatException)
        {
            throw new BackupException($"{path} is not a Folio backup manifest: {e.Message}", e);
        }
    }

    /// <summary>This manifest with <paramref name="file"/> appended.</summary>
    public BackupManifest With(BackupFile file) => new(Database, [.. Files, file]);

    /// <summary>Writes the manifest into <paramref name="directory"/>, replacing the one there only once the new one is on disk.</summary>
    public void Write(string directory)
    {
        string path = Path.Combine(directory, FileName);
        string temporary = path + ".tmp";
        using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None))
        {
            using (var writer = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true }))
            {
                writer.WriteStartObject();
                writer.WriteNumber("Format"u8, CurrentFormat);
                writer.WriteString("Database"u8, Database);
                writer.WriteStartArray("Files"u8);
                foreach (BackupFile file in Files)
                {
                    writer.WriteStartObject();
                    writer.WriteString("Name"u8, file.Name);
                    file.WriteContent(writer);
                    writer.WriteString("CreatedAt"u8, file.CreatedAt);
                    writer.WriteEndObject();
                }

                writer.WriteEndArray();
                writer.WriteEndObject();
            }

            stream.Flush(flushToDisk: true);
        }

        File.Move(temporary, path, overwrite: true);
    }

    private void CheckChain(string path)
    {
        if (Files.Count == 0 || Files[0].Kind != BackupKind.Full)
            throw new BackupException($"{path} does not start with a full backup.");
        for (int i = 1; i < Files.Count; i++)
        {
            if (Files[i].Kind != BackupKind.Incremental || Files[i].FromEtag != Files[i - 1].ToEtag)
                throw new BackupException($"{path}: file {Files[i].Name} does not continue {Files[i - 1].Name} (an incremental backup must start at the etag the previous file ends at).");
        }
    }

    /// <summary>A file name from a manifest must stay inside the backup directory.</summary>
    private static string SafeName(string name, string path) =>
        name.Length == 0 || name != Path.GetFileName(name) || name is "." or ".."
            ? throw new BackupException($"{path} names a file outside its directory: '{name}'.")
            : name;
}
