using System.Text;
using Folio.Indexing.Definitions;
using Folio.Indexing.Querying;
using Folio.Indexing.Rql;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// The RQL lexer, parser and compiler on a query's text (the input, as UTF-8). The parser (and the planner, for what it
/// checks late) refuses with <see cref="RqlParseException"/>; the compiler with <see cref="QueryException"/> or
/// <see cref="FieldPathException"/>; defining the auto index a collection query needs with
/// <see cref="IndexDefinitionException"/>. Each is answered 400; anything else would be a 500. A parse error's position
/// must lie within the text.
/// </summary>
public static class RqlHarness
{
    /// <summary>Runs one input.</summary>
    public static void Run(byte[] input) => RunText(Encoding.UTF8.GetString(input), parameters: null);

    /// <summary>Lexes, parses and compiles <paramref name="text"/> with <paramref name="parameters"/> bound.</summary>
    internal static void RunText(string text, System.Text.Json.JsonElement? parameters)
    {
        // The parser runs the lexer first; both refuse with the same exception.
        try
        {
            RqlCompilation.Compile(RqlParser.Parse(text), parameters);
        }
        catch (RqlParseException e)
        {
            InvariantException.Check(e.Position >= 0 && e.Position <= text.Length, $"Parse error at {e.Position} in a text of {text.Length} characters.");
        }
        catch (QueryException)
        {
        }
        catch (FieldPathException)
        {
        }
        catch (IndexDefinitionException)
        {
        }
    }
}
