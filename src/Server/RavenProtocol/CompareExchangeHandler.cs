using System.Globalization;
using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage.Documents;
using Microsoft.Extensions.Primitives;

namespace Folio.Server.RavenProtocol;

/// <summary>
/// Compare exchange as the seeds' system's clients reach it: durable per-database entries (a JSON value under a key,
/// kept in the database's storage) whose index changes on every write, so a writer names the index it read and
/// fails instead of overwriting a newer value.
/// </summary>
public sealed class CompareExchangeHandler
{
    private const int DefaultPageSize = 1024;

    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    /// <param name="options">Supplies the body and depth limits.</param>
    public CompareExchangeHandler(DatabaseRegistry databases, ServerOptions options)
    {
        _databases = databases;
        _options = options;
    }

    /// <summary>
    /// <c>GET /databases/{db}/cmpxchg?key=…[&amp;key=…]</c> or <c>?startsWith=&amp;start=&amp;pageSize=</c>: the entries,
    /// <c>{"Results":[{"Key","Index","Value","ChangeVector"}]}</c>. One key that does not exist answers 404; among
    /// several, a missing one is listed with index -1 and a null value.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/cmpxchg", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Get(FolioRequest request)
    {
        StringValues keys = request.Request.Query["key"];
        List<(string Key, CompareExchangeValue? Value)> entries = [];
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        using (DocumentReader reader = lease.Database.Store.OpenReader())
        {
            if (keys.Count > 0)
            {
                foreach (string? key in keys)
                {
                    if (string.IsNullOrEmpty(key))
                        throw QueryParameters.Invalid("'key' must not be empty.");
                    reader.TryGetCompareExchange(key, out CompareExchangeValue? value);
                    entries.Add((key, value));
                }

                if (entries is [(_, null)])
                    throw new FolioHttpException(StatusCodes.Status404NotFound, "Compare exchange not found", $"There is no compare exchange value '{keys[0]}'.", ProblemTypes.CompareExchangeNotFound);
            }
            else
            {
                string prefix = QueryParameters.Optional(request.Request, "startsWith") ?? string.Empty;
                int start = QueryParameters.NonNegativeInt32(request.Request, "start", 0);
                int pageSize = QueryParameters.NonNegativeInt32(request.Request, "pageSize", DefaultPageSize);
                foreach (CompareExchangeValue value in reader.CompareExchangeStartingWith(prefix, start, pageSize))
                    entries.Add((value.Key, value));
            }
        }

        await JsonResponse.WriteAsync(request.Response, entries, WriteEntries, request.Aborted);
    }

    /// <summary>
    /// <c>PUT /databases/{db}/cmpxchg?key=&amp;index=</c> with the value (a JSON object, <c>{"Object":…,"@metadata"?:…}</c>):
    /// stores it when the entry's index is <c>index</c> (0: only when there is no entry), answering
    /// <c>{"Successful","Index","Value"}</c>: the new index and value, or the current ones when the check failed.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the write is durable and the answer written.</returns>
    [FolioRoute("PUT", "/databases/{db}/cmpxchg", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Put(FolioRequest request)
    {
        string key = Key(request.Request);
        long index = Index(request.Request);
        byte[] json;
        using (RequestBody body = await RequestBody.ReadAsync(request.Request, _options.MaxRequestBodySizeBytes, request.Aborted))
            json = Value(body.Span, _options.MaxJsonDepth);
        CompareExchangeResult result;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
            result = await lease.Database.Store.PutCompareExchangeAsync(key, index, json);
        await JsonResponse.WriteAsync(request.Response, result, WriteResult, request.Aborted);
    }

    /// <summary>
    /// <c>DELETE /databases/{db}/cmpxchg?key=&amp;index=</c>: removes the entry when its index is <c>index</c>, answering
    /// <c>{"Successful","Index","Value"}</c> (the removed value, or the current one when the check failed).
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the write is durable and the answer written.</returns>
    [FolioRoute("DELETE", "/databases/{db}/cmpxchg", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Delete(FolioRequest request)
    {
        string key = Key(request.Request);
        long index = Index(request.Request);
        CompareExchangeResult result;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
            result = await lease.Database.Store.DeleteCompareExchangeAsync(key, index);
        await JsonResponse.WriteAsync(request.Response, result, WriteResult, request.Aborted);
    }

    /// <summary>Writes an entry's stored value, or null.</summary>
    /// <param name="writer">The writer, positioned where the value goes.</param>
    /// <param name="json">The stored JSON, or null.</param>
    internal static void WriteValue(Utf8JsonWriter writer, byte[]? json)
    {
        if (json is null)
            writer.WriteNullValue();
        else
            writer.WriteRawValue(json, skipInputValidation: true);
    }

    /// <summary>Checks a compare-exchange value: one JSON object within the depth limit.</summary>
    /// <param name="json">The value's bytes.</param>
    /// <param name="maxDepth">The deepest nesting allowed.</param>
    /// <returns>The bytes, copied.</returns>
    /// <exception cref="FolioHttpException">400 when it is not one JSON object.</exception>
    internal static byte[] Value(ReadOnlySpan<byte> json, int maxDepth)
    {
        try
        {
            var reader = new Utf8JsonReader(json, new JsonReaderOptions { MaxDepth = maxDepth });
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
                throw InvalidValue("The value must be a JSON object, {\"Object\": …}.");
            reader.Skip();
            if (reader.Read())
                throw InvalidValue("The value must be one JSON object; there is more after it.");
        }
        catch (JsonException e)
        {
            throw InvalidValue($"The value is not valid JSON: {e.Message}");
        }

        return json.ToArray();
    }

    private static FolioHttpException InvalidValue(string detail) =>
        new(StatusCodes.Status400BadRequest, "Invalid compare exchange value", detail, ProblemTypes.InvalidDocument);

    private static string Key(HttpRequest request)
    {
        string key = QueryParameters.Required(request, "key");
        try
        {
            CompareExchangeEntries.Validate(key);
        }
        catch (DocumentValidationException e)
        {
            throw QueryParameters.Invalid($"'key': {e.Message}");
        }

        return key;
    }

    private static long Index(HttpRequest request)
    {
        string text = QueryParameters.Required(request, "index");
        if (!long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out long index))
            throw QueryParameters.Invalid($"'index' must be a non-negative whole number; it is '{text}'.");
        return index;
    }

    private static void WriteResult(Utf8JsonWriter writer, CompareExchangeResult result)
    {
        writer.WriteStartObject();
        writer.WriteBoolean("Successful"u8, result.Successful);
        writer.WriteNumber("Index"u8, result.Index);
        writer.WritePropertyName("Value"u8);
        WriteValue(writer, result.Json);
        writer.WriteEndObject();
    }

    private static void WriteEntries(Utf8JsonWriter writer, List<(string Key, CompareExchangeValue? Value)> entries)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        foreach ((string key, CompareExchangeValue? value) in entries)
            WriteEntry(writer, key, value);
        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    /// <summary>Writes one entry as <c>{"Key","Index","Value","ChangeVector"}</c> (index -1 and a null value when it does not exist).</summary>
    /// <param name="writer">The writer, positioned where the object goes.</param>
    /// <param name="key">The key asked for.</param>
    /// <param name="value">The entry, or null.</param>
    internal static void WriteEntry(Utf8JsonWriter writer, string key, CompareExchangeValue? value)
    {
        writer.WriteStartObject();
        writer.WriteString("Key"u8, key);
        writer.WriteNumber("Index"u8, value?.Index ?? -1);
        writer.WritePropertyName("Value"u8);
        WriteValue(writer, value?.Json);
        writer.WriteNull("ChangeVector"u8);
        writer.WriteEndObject();
    }
}
