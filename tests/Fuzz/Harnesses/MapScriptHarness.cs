using System.Text;
using Folio.Indexing.Definitions;
using Folio.Indexing.ScriptMaps;
using Folio.Indexing.Scripting;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// A JavaScript map index's <c>MapScript</c> (the input, as UTF-8), as an index definition brings it: checked as
/// <c>PUT /indexes</c> checks it (<see cref="ScriptMapProgram.Validate"/> through the definition, refusing with
/// <see cref="IndexDefinitionException"/>), then, when it passes, run over the documents of
/// <see cref="ScriptFuzzDatabase"/> as an indexing batch runs it (<see cref="ScriptMapRunner"/>, whose refusal is a
/// <see cref="ScriptException"/> that puts the index in error). Nothing else may escape.
/// </summary>
public static class MapScriptHarness
{
    private static readonly string[] Collections = ["People"];
    private static readonly Dictionary<string, IndexFieldDefinition> Fields = new() { ["Name"] = new(FieldPath.Parse("Name")) };

    /// <summary>Runs one input.</summary>
    public static void Run(byte[] input)
    {
        var script = Encoding.UTF8.GetString(input);
        IndexDefinition definition;
        try
        {
            // Setting the script checks it, as reading a definition does.
            definition = new IndexDefinition("Fuzz", Collections, Fields) { MapScript = script };
        }
        catch (IndexDefinitionException)
        {
            return;
        }
        var database = ScriptFuzzDatabase.Instance;
        try
        {
            using var runner = new ScriptMapRunner(definition, database.Store);
            using var reader = database.Store.OpenReader();
            for (var i = 0; i < 5; i++)
            {
                if (reader.TryGet($"people/{i}", out var document))
                    runner.Map(document);
            }
        }
        catch (ScriptException)
        {
        }
    }
}
