using System.Text.Json;
using Folio.Indexing.Patching;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Documents;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage.Documents;

namespace Folio.Server.Patching;

/// <summary>
/// <c>PATCH /databases/{db}/docs?id=</c>: changes one document with a JavaScript patch (<c>{"Script","Values"}</c>,
/// the values as <c>args</c>) or, with <c>Content-Type: application/merge-patch+json</c>, an RFC 7396 merge patch.
/// The script runs outside the write transaction (a slow script must not stall other writers); the new document is
/// then written through the merger on the condition that the document is still the version the script read, and a
/// write that lost that race is patched again from the newer version. With <c>If-Match</c> (or <c>"ChangeVector"</c>/<c>"IfMatch"</c>
/// in the body) the client's version is the condition instead, and losing is a 409.
/// </summary>
public sealed class PatchHandler(DatabaseRegistry databases, ServerOptions options)
{
    private const string MergePatchMediaType = "application/merge-patch+json";

    // A document rewritten by other writers this many times while being patched is a hot spot; the client gets the 409.
    private const int Attempts = 64;

    // The body may name the version to patch as the seeds' clients do ("ChangeVector") or as the header does ("IfMatch").
    private static readonly string[] ConditionNames = ["ChangeVector", "IfMatch"];

    /// <summary>
    /// Patches the document; answers 200 <c>{"Id","ChangeVector","Status","Document","ModifiedDocument"}</c> with the new
    /// document (the last as the seeds' clients read it); a script that changes nothing writes nothing and answers
    /// <c>Status: "NotModified"</c> with the stored version. Their <c>{"Patch":{…},"PatchIfMissing":{…}}</c> is accepted too.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the new document is durable and the answer written.</returns>
    [FolioRoute("PATCH", "/databases/{db}/docs", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Patch(FolioRequest request)
    {
        var id = QueryParameters.Required(request.Request, "id");
        DocumentIdRules.Validate(id);
        var expected = ChangeVectorHeaders.IfMatch(request.Request);
        using var body = await JsonBody.ParseAsync(request.Request, options, request.Aborted);
        var root = body.RootElement;
        var merge = IsMergePatch(request.Request.ContentType);
        if (merge && root.ValueKind != JsonValueKind.Object)
            throw QueryParameters.Invalid("A merge patch must be a JSON object: a document stays an object.");
        // The seeds' clients wrap the script, and may add one for a missing document: {"Patch":{…},"PatchIfMissing":{…}}.
        var wrapped = !merge && root.ValueKind == JsonValueKind.Object && root.TryGetProperty("Patch", out var inner) && inner.ValueKind == JsonValueKind.Object;
        using var patcher = merge ? null : ScriptPatcher(wrapped ? root.GetProperty("Patch") : root, ref expected);
        using var ifMissing = wrapped && root.TryGetProperty("PatchIfMissing", out var missing) && missing.ValueKind != JsonValueKind.Null
            ? ScriptPatcher(missing, ref expected)
            : null;

        using var lease = databases.Lease(request.DatabaseSpan);
        var store = lease.Database.Store;
        for (var attempt = 1; ; attempt++)
        {
            var (patched, read, unchanged) = Apply(lease.Database, id, root, patcher, ifMissing);
            if (unchanged)
            {
                // A script that leaves the document as it was writes nothing, and says so.
                await WriteUnchangedAsync(request, id, patched, read!);
                return;
            }
            // A document made by PatchIfMissing is written only if it still does not exist (an empty change vector).
            var condition = expected ?? read ?? string.Empty;
            try
            {
                // Not cancelled with the request: once queued, a write completes or fails as a whole.
                var result = await store.PutAsync(id, PreparedDocument.Parse(patched, options.MaxJsonDepth), condition);
                await WriteAnswerAsync(request, store, result, created: read is null);
                return;
            }
            catch (ConcurrencyException) when (expected is null && attempt < Attempts)
            {
                // Another writer changed the document after the script read it: patch the newer version, after a
                // random pause that grows with the attempts, so patches racing on one document spread out.
                await Task.Delay(Random.Shared.Next(1, 2 + (2 * attempt)), request.Aborted);
            }
        }
    }

    private DocumentPatcher ScriptPatcher(JsonElement root, ref string? expected)
    {
        if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("Script", out var script) || script.ValueKind != JsonValueKind.String)
            throw QueryParameters.Invalid("The body must be an object with a \"Script\" string (or a merge patch sent as application/merge-patch+json).");
        JsonElement? values = null;
        if (root.TryGetProperty("Values", out var given) && given.ValueKind != JsonValueKind.Null)
        {
            if (given.ValueKind != JsonValueKind.Object)
                throw QueryParameters.Invalid("\"Values\" must be an object; the script reads it as args.");
            values = given;
        }
        foreach (var name in ConditionNames)
        {
            if (!root.TryGetProperty(name, out var changeVector) || changeVector.ValueKind == JsonValueKind.Null)
                continue;
            if (changeVector.ValueKind != JsonValueKind.String || changeVector.GetString()!.Length == 0)
                throw QueryParameters.Invalid($"\"{name}\" must be the change vector of the version to patch.");
            if (expected is not null && !string.Equals(expected.Trim('"'), changeVector.GetString(), StringComparison.Ordinal))
                throw QueryParameters.Invalid($"If-Match and \"{name}\" name different versions.");
            expected = changeVector.GetString();
        }
        return DocumentPatcher.ForScript(script.GetString()!, values, options.Scripting.ToLimits(), options.MaxJsonDepth);
    }

    /// <summary>
    /// The patched JSON of the stored document, the change vector of the version it came from and whether the patch
    /// left it as it was; for a missing document, what <paramref name="ifMissing"/> makes of an empty one, and no change vector.
    /// </summary>
    private (byte[] Patched, string? ChangeVector, bool Unchanged) Apply(Database database, string id, JsonElement root, DocumentPatcher? patcher, DocumentPatcher? ifMissing)
    {
        using var reader = database.Store.OpenReader();
        if (!reader.TryGet(id, out var document))
        {
            if (ifMissing is not null)
                return (ifMissing.Apply("{}"u8, reader), null, false);
            throw new FolioHttpException(StatusCodes.Status404NotFound, "Document not found", $"There is no document with id '{id}' to patch.", ProblemTypes.DocumentNotFound);
        }
        var read = ChangeVector.ToString(document.Etag, database.DatabaseIdBytes);
        var patched = patcher is null ? JsonMergePatch.Apply(document.Json, root, options.MaxJsonDepth) : patcher.Apply(document.Json, reader);
        return (patched, read, patched.AsSpan().SequenceEqual(document.Json));
    }

    private static bool IsMergePatch(string? contentType) =>
        contentType is not null && contentType.Split(';')[0].Trim().Equals(MergePatchMediaType, StringComparison.OrdinalIgnoreCase);

    private static async ValueTask WriteAnswerAsync(FolioRequest request, DocumentStore store, WriteResult result, bool created)
    {
        byte[] stored;
        using (var reader = store.OpenReader())
            stored = reader.TryGet(result.Id, out var document) ? document.Json.ToArray() : "null"u8.ToArray();
        var response = request.Response;
        response.Headers.ETag = ChangeVectorHeaders.ETag(result.ChangeVector!);
        await JsonResponse.WriteAsync(response, (result, stored, created), WriteResult, request.Aborted);
    }

    private static async ValueTask WriteUnchangedAsync(FolioRequest request, string id, byte[] stored, string changeVector)
    {
        request.Response.Headers.ETag = ChangeVectorHeaders.ETag(changeVector);
        await JsonResponse.WriteAsync(request.Response, (id, changeVector, stored), WriteUnchanged, request.Aborted);
    }

    private static void WriteUnchanged(Utf8JsonWriter writer, (string Id, string ChangeVector, byte[] Stored) answer)
    {
        writer.WriteStartObject();
        writer.WriteString("Id"u8, answer.Id);
        writer.WriteString("ChangeVector"u8, answer.ChangeVector);
        writer.WriteString("Status"u8, "NotModified"u8);
        writer.WritePropertyName("Document"u8);
        writer.WriteRawValue(answer.Stored, skipInputValidation: true);
        writer.WritePropertyName("ModifiedDocument"u8);
        writer.WriteRawValue(answer.Stored, skipInputValidation: true);
        writer.WriteEndObject();
    }

    private static void WriteResult(Utf8JsonWriter writer, (WriteResult Result, byte[] Stored, bool Created) answer)
    {
        writer.WriteStartObject();
        writer.WriteString("Id"u8, answer.Result.Id);
        writer.WriteString("ChangeVector"u8, answer.Result.ChangeVector);
        writer.WriteString("Status"u8, answer.Created ? "Created"u8 : "Patched"u8);
        writer.WritePropertyName("Document"u8);
        writer.WriteRawValue(answer.Stored, skipInputValidation: true);
        // The seeds' clients read the new document under this name.
        writer.WritePropertyName("ModifiedDocument"u8);
        writer.WriteRawValue(answer.Stored, skipInputValidation: true);
        writer.WriteEndObject();
    }
}
