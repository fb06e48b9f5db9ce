using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Server.Indexes;
using Folio.Server.RavenProtocol.Indexes;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// Index definitions as <c>PUT …/indexes</c> reads them: Folio's own form (<see cref="IndexDefinitionJson"/>), the seeds'
/// clients' form with <c>Maps</c> (<see cref="RavenIndexDefinition"/>, which translates their C# and JavaScript maps) and
/// the settings beside either (<see cref="IndexSettingsRequest"/>). The input is one definition or
/// <c>{"Indexes":[…]}</c>. Refusals: <see cref="JsonException"/>, <see cref="IndexDefinitionException"/> and
/// <see cref="FieldPathException"/> (each a 400). An accepted definition must lay out its schema and read back from its
/// own JSON as the same definition, since that JSON is what the index catalog stores and reloads at start.
/// </summary>
public static class IndexDefinitionHarness
{
    /// <summary>Runs one input.</summary>
    public static void Run(byte[] input)
    {
        try
        {
            using JsonDocument body = JsonDocument.Parse(input);
            JsonElement root = body.RootElement;
            if (root.ValueKind == JsonValueKind.Object && root.TryGetProperty("Indexes", out JsonElement list) && list.ValueKind == JsonValueKind.Array)
            {
                foreach (JsonElement item in list.EnumerateArray())
                    RunOne(item);
            }
            else
            {
                RunOne(root);
            }
        }
        catch (JsonException)
        {
        }
        catch (InvalidOperationException e) when (e.InnerException is System.Text.DecoderFallbackException)
        {
            // A string that is not UTF-8, noticed when read: the server answers it 400 (ExceptionMapper).
        }
        catch (IndexDefinitionException)
        {
        }
        catch (FieldPathException)
        {
        }
    }

    private static void RunOne(JsonElement item)
    {
        bool seedsShape = item.ValueKind == JsonValueKind.Object && item.TryGetProperty("Maps", out _);
        IndexDefinition definition = seedsShape ? RavenIndexDefinition.Translate(item) : IndexDefinitionJson.Parse(item);
        IndexSettingsRequest.Read(item, definition.Name);
        definition.ToSchema();

        string stored = IndexDefinitionJson.ToJson(definition);
        using JsonDocument reread = JsonDocument.Parse(stored);
        IndexDefinition reloaded = IndexDefinitionJson.Parse(reread.RootElement);
        InvariantException.Check(reloaded.SameAs(definition), $"The stored definition reads back differently: {stored} became {IndexDefinitionJson.ToJson(reloaded)}.");
    }
}
