using System.Text.Json;

namespace Folio.Server.Security;

/// <summary>
/// The credentials on disk: <c>DataDir/System/credentials.json</c>, <c>{"Credentials":[…]}</c>, written whole to a
/// temporary file, synced and renamed over the old one, so a crash leaves either version. A lock file held with
/// <see cref="FileShare.None"/> serializes writers across processes (the server and the command line).
/// </summary>
internal static class CredentialFile
{
    /// <summary>The folder under the data directory holding server-level data.</summary>
    public const string SystemFolder = "System";

    /// <summary>The file's name.</summary>
    public const string FileName = "credentials.json";

    private static readonly JsonWriterOptions s_writer = new() { Indented = true };

    /// <summary>Where a data directory keeps its credentials.</summary>
    /// <param name="dataDir">The data directory.</param>
    /// <returns>The file's path.</returns>
    public static string PathIn(string dataDir) => Path.Combine(dataDir, SystemFolder, FileName);

    /// <summary>Reads the file; an absent file holds no credentials.</summary>
    /// <param name="path">The file.</param>
    /// <returns>The credentials.</returns>
    /// <exception cref="InvalidDataException">The file is not a credentials file.</exception>
    public static List<Credential> Read(string path)
    {
        if (!File.Exists(path))
            return [];
        try
        {
            using JsonDocument document = JsonDocument.Parse(File.ReadAllBytes(path));
            var credentials = new List<Credential>();
            foreach (JsonElement item in document.RootElement.GetProperty("Credentials").EnumerateArray())
            {
                string hash = item.GetProperty("KeyHash").GetString()!;
                credentials.Add(new Credential(
                    item.GetProperty("Name").GetString()!,
                    Enum.Parse<CredentialKind>(item.GetProperty("Kind").GetString()!),
                    Enum.Parse<Clearance>(item.GetProperty("Clearance").GetString()!),
                    item.GetProperty("Databases").EnumerateArray().Select(d => d.GetString()!).ToArray(),
                    item.GetProperty("Identifier").GetString()!,
                    Convert.FromHexString(hash),
                    item.GetProperty("CreatedAt").GetDateTimeOffset()));
            }

            return credentials;
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException or FormatException or ArgumentException)
        {
            throw new InvalidDataException($"'{path}' is not a Folio credentials file: {ex.Message}", ex);
        }
    }

    /// <summary>Replaces the file with these credentials, durably.</summary>
    /// <param name="path">The file.</param>
    /// <param name="credentials">Everything it should hold.</param>
    public static void Write(string path, IReadOnlyList<Credential> credentials)
    {
        string temporary = path + ".tmp";
        using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None))
        {
            using (var writer = new Utf8JsonWriter(stream, s_writer))
            {
                writer.WriteStartObject();
                writer.WriteStartArray("Credentials"u8);
                foreach (Credential credential in credentials)
                {
                    writer.WriteStartObject();
                    writer.WriteString("Name"u8, credential.Name);
                    writer.WriteString("Kind"u8, credential.Kind.ToString());
                    writer.WriteString("Clearance"u8, credential.Clearance.ToString());
                    writer.WriteStartArray("Databases"u8);
                    foreach (string database in credential.Databases)
                        writer.WriteStringValue(database);
                    writer.WriteEndArray();
                    writer.WriteString("Identifier"u8, credential.Identifier);
                    writer.WriteString("KeyHash"u8, Convert.ToHexString(credential.KeyHash));
                    writer.WriteString("CreatedAt"u8, credential.CreatedAt);
                    writer.WriteEndObject();
                }

                writer.WriteEndArray();
                writer.WriteEndObject();
            }

            stream.Flush(flushToDisk: true);
        }

        File.Move(temporary, path, overwrite: true);
    }

    /// <summary>Takes the cross-process write lock, waiting up to ten seconds for another writer.</summary>
    /// <param name="path">The credentials file.</param>
    /// <returns>The lock; dispose it to release.</returns>
    /// <exception cref="IOException">Another process held the lock all that time.</exception>
    public static FileStream Lock(string path)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        long deadline = Environment.TickCount64 + 10_000;
        while (true)
        {
            try
            {
                return new FileStream(path + ".lock", FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
            }
            catch (IOException) when (Environment.TickCount64 < deadline)
            {
                // Another writer holds it for the milliseconds a write takes.
                Thread.Sleep(20);
            }
        }
    }
}
