using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.Backup;

/// <summary>
/// <c>POST /admin/databases/{db}/backup</c> and <c>POST /admin/databases/restore</c>: consistent online backups
/// (full, then incremental) into a directory on the server's machine, and restores of such a directory into a new
/// database. A relative directory resolves against <c>DataDir/Backups</c>.
/// </summary>
public sealed class BackupHandler
{
    /// <summary>Where relative backup directories resolve, inside the data directory.</summary>
    public const string BackupsFolder = "Backups";

    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;
    private readonly ILogger<BackupHandler> _logger;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves <c>{db}</c> and creates restored databases.</param>
    /// <param name="options">The data directory and JSON limits.</param>
    /// <param name="logger">Where progress goes.</param>
    public BackupHandler(DatabaseRegistry databases, ServerOptions options, ILogger<BackupHandler> logger)
    {
        _databases = databases;
        _options = options;
        _logger = logger;
    }

    /// <summary>
    /// Writes a backup of <c>{db}</c> into <c>{"Directory"}</c>: full when the directory holds no backup set, else
    /// incremental (the documents stored and deleted since the set's last file); <c>"Kind"</c> may ask for either.
    /// Answers 201 with the file as the manifest records it.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the file and manifest are on disk and answered.</returns>
    [FolioRoute("POST", "/admin/databases/{db}/backup", Access = RouteAccess.Admin)]
    public async ValueTask Backup(FolioRequest request)
    {
        Monitoring.LongRunningRequest.Mark(request.Context);
        (string directory, string? kindText, _) = await ReadBodyAsync(request, needsName: false);
        BackupKind? kind = kindText switch
        {
            null => null,
            _ when Enum.TryParse(kindText, ignoreCase: true, out BackupKind parsed) && Enum.IsDefined(parsed) => parsed,
            _ => throw QueryParameters.Invalid($"\"Kind\" must be \"Full\" or \"Incremental\", not '{kindText}'."),
        };

        using DatabaseLease lease = _databases.Lease(request.DatabaseSpan);
        BackupFile file;
        try
        {
            file = await new BackupWriter(_logger).WriteAsync(lease.Database, directory, kind, request.Aborted);
        }
        catch (BackupException e)
        {
            throw Invalid(e);
        }
        catch (UnauthorizedAccessException e)
        {
            throw QueryParameters.Invalid($"The server cannot write to {directory}: {e.Message}");
        }

        request.Response.StatusCode = StatusCodes.Status201Created;
        await JsonResponse.WriteAsync(request.Response, (directory, file), WriteBackup, request.Aborted);
    }

    /// <summary>
    /// Restores the backup set in <c>{"Directory"}</c> into a new database <c>{"Name"}</c>, after checking every file
    /// against the manifest; answers 201 <c>{"Name","Files","Documents","Indexes","Subscriptions","DurationInMs"}</c>.
    /// A damaged, truncated or foreign backup answers 400 <c>invalid-backup</c> and creates nothing.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the database is restored and answered.</returns>
    [FolioRoute("POST", "/admin/databases/restore", Access = RouteAccess.Admin)]
    public async ValueTask Restore(FolioRequest request)
    {
        Monitoring.LongRunningRequest.Mark(request.Context);
        (string directory, _, string? name) = await ReadBodyAsync(request, needsName: true);
        RestoreSummary summary;
        try
        {
            summary = await new BackupRestorer(_databases, _options.MaxJsonDepth, _logger).RestoreAsync(directory, name!, request.Aborted);
        }
        catch (BackupException e)
        {
            throw Invalid(e);
        }

        request.Response.StatusCode = StatusCodes.Status201Created;
        await JsonResponse.WriteAsync(request.Response, summary, WriteRestore, request.Aborted);
    }

    private async Task<(string Directory, string? Kind, string? Name)> ReadBodyAsync(FolioRequest request, bool needsName)
    {
        string? directory, kind, name;
        using (JsonDocument body = await JsonBody.ParseAsync(request.Request, _options, request.Aborted))
        {
            if (body.RootElement.ValueKind != JsonValueKind.Object)
                throw QueryParameters.Invalid(needsName ? "The body must be {\"Directory\":\"…\",\"Name\":\"…\"}." : "The body must be {\"Directory\":\"…\"}.");
            directory = OptionalString(body.RootElement, "Directory");
            kind = needsName ? null : OptionalString(body.RootElement, "Kind");
            name = needsName ? OptionalString(body.RootElement, "Name") : null;
        }

        if (string.IsNullOrWhiteSpace(directory) || directory.IndexOf('\0') >= 0)
            throw QueryParameters.Invalid("\"Directory\" is required: a directory on the server's machine (relative ones resolve against DataDir/Backups).");
        if (needsName && name is null)
            throw QueryParameters.Invalid("\"Name\" is required: the new database to restore into.");
        return (Path.GetFullPath(directory, Path.Combine(_options.DataDir, BackupsFolder)), kind, name);
    }

    private static string? OptionalString(JsonElement body, string property) =>
        !body.TryGetProperty(property, out JsonElement value) ? null
        : value.ValueKind == JsonValueKind.String ? value.GetString()
        : throw QueryParameters.Invalid($"\"{property}\" must be a string.");

    private static FolioHttpException Invalid(BackupException e) =>
        new(StatusCodes.Status400BadRequest, "Invalid backup", e.Message, ProblemTypes.InvalidBackup);

    private static void WriteBackup(Utf8JsonWriter writer, (string Directory, BackupFile File) state)
    {
        BackupFile file = state.File;
        writer.WriteStartObject();
        writer.WriteString("Directory"u8, state.Directory);
        writer.WriteString("File"u8, file.Name);
        file.WriteContent(writer);
        writer.WriteEndObject();
    }

    private static void WriteRestore(Utf8JsonWriter writer, RestoreSummary summary)
    {
        writer.WriteStartObject();
        writer.WriteString("Name"u8, summary.Name);
        writer.WriteNumber("Files"u8, summary.Files);
        writer.WriteNumber("Documents"u8, summary.Documents);
        writer.WriteNumber("Indexes"u8, summary.Indexes);
        writer.WriteNumber("Subscriptions"u8, summary.Subscriptions);
        writer.WriteNumber("DurationInMs"u8, Math.Round(summary.Duration.TotalMilliseconds, 1));
        writer.WriteEndObject();
    }
}
