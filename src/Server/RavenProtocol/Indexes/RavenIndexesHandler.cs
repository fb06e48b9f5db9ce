using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.RavenProtocol.Indexes;

/// <summary>
/// <c>PUT /databases/{db}/admin/indexes</c>: index creation as the seeds' system's clients send it,
/// <c>{"Indexes":[{"Name","Maps":[…],"Reduce","Fields":{"F":{"Indexing":"Search|Exact|Default|No",…}},…}]}</c>.
/// Maps are translated by <see cref="MapTranslator"/>; a definition Folio cannot translate soundly is refused
/// (400, nothing created) with the reason.
/// </summary>
public sealed class RavenIndexesHandler
{
    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    /// <param name="options">Supplies the body and depth limits.</param>
    public RavenIndexesHandler(DatabaseRegistry databases, ServerOptions options)
    {
        _databases = databases;
        _options = options;
    }

    /// <summary>Creates or replaces the indexes and answers 201 <c>{"Results":[{"Index","RaftCommandIndex"}]}</c>.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the indexes exist and the answer is written.</returns>
    [FolioRoute("PUT", "/databases/{db}/admin/indexes", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Put(FolioRequest request)
    {
        List<IndexDefinition> definitions;
        List<Folio.Server.Indexes.IndexSettingsRequest> settings;
        using (JsonDocument body = await JsonBody.ParseAsync(request.Request, _options, request.Aborted))
        {
            if (body.RootElement.ValueKind != JsonValueKind.Object || !body.RootElement.TryGetProperty("Indexes", out JsonElement list) || list.ValueKind != JsonValueKind.Array)
                throw QueryParameters.Invalid("The body must be {\"Indexes\":[index definition, …]}.");
            definitions = [];
            settings = [];
            int position = 0;
            foreach (JsonElement item in list.EnumerateArray())
            {
                try
                {
                    definitions.Add(RavenIndexDefinition.Translate(item));
                    if (Folio.Server.Indexes.IndexSettingsRequest.Read(item, definitions[^1].Name) is { } asked)
                        settings.Add(asked);
                }
                catch (IndexDefinitionException e)
                {
                    throw new IndexDefinitionException($"Index {position}: {e.Message}");
                }

                position++;
            }
        }

        if (definitions.Count == 0)
            throw QueryParameters.Invalid("\"Indexes\" is empty.");
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            lease.Database.Indexes.Put(definitions);
            Folio.Server.Indexes.IndexSettingsRequest.Apply(lease.Database.Indexes, settings);
        }
        request.Response.StatusCode = StatusCodes.Status201Created;
        await JsonResponse.WriteAsync(request.Response, definitions, WriteResults, request.Aborted);
    }

    private static void WriteResults(Utf8JsonWriter writer, List<IndexDefinition> definitions)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        foreach (IndexDefinition definition in definitions)
        {
            writer.WriteStartObject();
            writer.WriteString("Index"u8, definition.Name);
            writer.WriteNumber("RaftCommandIndex"u8, 1);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }
}
