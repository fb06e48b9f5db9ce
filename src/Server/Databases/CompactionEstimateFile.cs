using System.Text.Json;
using Folio.Storage.Compaction;

namespace Folio.Server.Databases;

/// <summary>
/// The database's last compaction estimate and the etag it was made at, kept in <c>compaction-estimate.json</c> beside
/// its data so that a database opened again (after a restart or an idle unload) with no write since is not read whole
/// to be weighed again. A hint only: a missing or damaged file means one more estimate.
/// </summary>
internal static class CompactionEstimateFile
{
    private const string FileName = "compaction-estimate.json";

    /// <summary>Writes the estimate made at <paramref name="etag"/>, replacing the previous one whole.</summary>
    public static void Save(string directory, long etag, CompactionEstimate estimate)
    {
        string path = Path.Combine(directory, FileName);
        string temporary = path + ".tmp";
        using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None))
        using (var writer = new Utf8JsonWriter(stream))
        {
            writer.WriteStartObject();
            writer.WriteNumber("Etag"u8, etag);
            writer.WriteNumber("FileBytes"u8, estimate.FileBytes);
            writer.WriteNumber("FreeBytes"u8, estimate.FreeBytes);
            writer.WriteNumber("SlackBytes"u8, estimate.SlackBytes);
            writer.WriteNumber("RecompressibleDocuments"u8, estimate.RecompressibleDocuments);
            writer.WriteNumber("RecompressionBytes"u8, estimate.RecompressionBytes);
            writer.WriteEndObject();
        }
        File.Move(temporary, path, overwrite: true);
    }

    /// <summary>Reads the last estimate; false when there is none or it cannot be read.</summary>
    public static bool TryLoad(string directory, out long etag, out CompactionEstimate? estimate)
    {
        etag = 0;
        estimate = null;
        string path = Path.Combine(directory, FileName);
        if (!File.Exists(path))
            return false;
        try
        {
            using JsonDocument file = JsonDocument.Parse(File.ReadAllBytes(path));
            JsonElement root = file.RootElement;
            etag = root.GetProperty("Etag").GetInt64();
            estimate = new CompactionEstimate(
                root.GetProperty("FileBytes").GetInt64(),
                root.GetProperty("FreeBytes").GetInt64(),
                root.GetProperty("SlackBytes").GetInt64(),
                root.GetProperty("RecompressibleDocuments").GetInt64(),
                root.GetProperty("RecompressionBytes").GetInt64());
            return true;
        }
        catch (Exception e) when (e is JsonException or IOException or KeyNotFoundException or InvalidOperationException or FormatException)
        {
            return false;
        }
    }
}
