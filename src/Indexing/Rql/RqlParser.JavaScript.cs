using Folio.Indexing.Definitions;

namespace Folio.Indexing.Rql;

/// <summary>
/// The JavaScript clauses of the seeds' RQL: <c>declare function name(args) { … }</c> before <c>from</c>, the alias
/// of <c>from Orders as o</c> (which field references may start with), <c>load o.Company as c</c>,
/// <c>select { … }</c>, <c>select f(o)</c> of a declared function, and <c>update { … }</c>. The JavaScript itself is kept
/// as text; the scripting engine parses it.
/// </summary>
public sealed partial class RqlParser
{
    private readonly List<RqlScript> _functions = [];
    private readonly HashSet<string> _functionNames = new(StringComparer.Ordinal);
    private readonly List<RqlLoad> _loads = [];
    private string? _alias;
    private RqlScript? _scriptProjection;
    private RqlScript? _update;

    private void ParseDeclarations()
    {
        while (Current.IsKeyword("declare"))
        {
            _index++;
            var function = Current;
            ExpectKeyword("function");
            if (Current.Kind != RqlTokenKind.Identifier)
                throw Error($"Expected the declared function's name but found {Current.Describe()}");
            _functionNames.Add(Current.Text);
            while (Current.Kind is not (RqlTokenKind.Script or RqlTokenKind.End))
                _index++;
            if (Current.Kind != RqlTokenKind.Script)
                throw Error("Expected the declared function's body in braces");
            var end = Current.Position + Current.Text.Length;
            _index++;
            _functions.Add(ScriptAt(_text[function.Position..end], function.Position));
        }
    }

    private void ParseSourceAlias()
    {
        if (TakeKeyword("as"))
            _alias = ExpectName("an alias for the documents");
    }

    private void ParseLoads()
    {
        if (!TakeKeyword("load"))
            return;
        do
        {
            var field = ParseField();
            if (field.Path is null || field.Aggregate is not null)
                throw new RqlParseException("load takes a path whose value is a document id", field.Position);
            ExpectKeyword("as");
            _loads.Add(new RqlLoad(field, ExpectName("an alias for the loaded document")));
        }
        while (Take(RqlTokenKind.Comma));
    }

    private bool TryParseScriptSelect()
    {
        if (Current.Kind == RqlTokenKind.Script)
        {
            _scriptProjection = ScriptAt(Current.Text, Current.Position);
            _index++;
            return true;
        }
        return TryParseDeclaredFunctionSelect();
    }

    /// <summary>
    /// <c>select output(e)</c>: the projection is what a function the query declared returns, as the seeds' documentation
    /// writes projections that format or combine fields. Kept as the call's text, arguments and all, which the scripting
    /// engine evaluates as it does <c>select { … }</c>.
    /// </summary>
    private bool TryParseDeclaredFunctionSelect()
    {
        if (!TryParseDeclaredFunctionCall(out var call))
            return false;
        if (Current.Kind == RqlTokenKind.Comma || TakeKeyword("as"))
            throw Error("A declared function's projection is the whole select: it cannot be named or listed with other fields (return an object with them instead)");
        _scriptProjection = call;
        return true;
    }

    /// <summary>A call of a function the query declared, kept as its text, arguments and all.</summary>
    private bool TryParseDeclaredFunctionCall(out RqlScript call)
    {
        call = null!;
        if (Current.Kind != RqlTokenKind.Identifier || !_functionNames.Contains(Current.Text) || Peek(1).Kind != RqlTokenKind.OpenParen)
            return false;
        var start = Current.Position;
        var name = Current.Text;
        _index += 2;
        for (var depth = 1; depth > 0; _index++)
        {
            if (Current.Kind == RqlTokenKind.End)
                throw Error($"Expected ')' to close the call of {name} but found the end of the query");
            if (Current.Kind == RqlTokenKind.OpenParen)
                depth++;
            else if (Current.Kind == RqlTokenKind.CloseParen)
                depth--;
        }
        var end = Peek(-1).Position + 1;
        call = ScriptAt(_text[start..end], start);
        return true;
    }

    private void TryParseUpdate()
    {
        if (!TakeKeyword("update"))
            return;
        if (Current.Kind != RqlTokenKind.Script)
            throw Error($"Expected the update's JavaScript in braces but found {Current.Describe()}");
        _update = ScriptAt(Current.Text, Current.Position);
        _index++;
    }

    private RqlQuery WithScripts(RqlQuery query)
    {
        if (_update is not null && (query.Select.Count > 0 || _scriptProjection is not null || query.Facets.Count > 0))
            throw new RqlParseException("A query with update cannot also select", _tokens[0].Position);
        if (_alias is not null && _loads.Count == 0 && query.Select.Count > 0 && IndexOfAliasProjection(query.Select) is var whole and >= 0)
        {
            // select o under from Orders as o is the document itself, as the seeds' RQL reads it.
            if (query.Select.Count > 1)
                throw new RqlParseException($"select {_alias} is the whole document; beside other fields write select {{ … }} (select {{ Order: {_alias}, … }})", query.Select[whole].Field.Position);
            if (query.Select[whole].Alias != _alias)
                throw new RqlParseException($"select {_alias} is the whole document; it takes no name (select {{ Name: {_alias} }} puts it under one)", query.Select[whole].Field.Position);
            query = query with { Select = [] };
        }
        if (_loads.Count > 0 && _scriptProjection is null && _update is null)
        {
            if (query.Select.Count == 0)
                throw new RqlParseException("load needs a select that uses the loaded documents (select c.Name, or select { … }) or an update that does", _tokens[0].Position);
            if (_distinct)
                throw new RqlParseException("select distinct cannot read loaded documents", _distinctAt);
            var first = query.Select[0].Field.Position;
            _scriptProjection = ScriptAt(LoadedSelect.ObjectLiteral(query.Select, _loads, _alias), first);
            query = query with { Select = [] };
        }
        return query with { Alias = _alias, Functions = _functions, Loads = _loads, ScriptProjection = _scriptProjection, Update = _update };
    }

    /// <summary>The position in <paramref name="select"/> of a projection that names the from alias alone, or -1.</summary>
    private int IndexOfAliasProjection(IReadOnlyList<RqlProjection> select)
    {
        for (var i = 0; i < select.Count; i++)
        {
            if (select[i].Field is { Aggregate: null, Path.Segments: [{ MarksArray: false } only] } && only.Name == _alias)
                return i;
        }
        return -1;
    }

    /// <summary><c>o.Freight</c> under <c>from Orders as o</c> is the field <c>Freight</c>.</summary>
    private PathSegment[] StripAlias(PathSegment[] segments) =>
        _alias is not null && segments.Length > 1 && !segments[0].MarksArray && string.Equals(segments[0].Name, _alias, StringComparison.Ordinal)
            ? segments[1..]
            : segments;

    private RqlScript ScriptAt(string text, int position)
    {
        var line = 1;
        var lineStart = 0;
        for (var i = 0; i < position; i++)
        {
            if (_text[i] == '\n')
            {
                line++;
                lineStart = i + 1;
            }
        }
        return new RqlScript(text, line, position - lineStart + 1);
    }
}
