using System.Text;

namespace Folio.Client.Http;

/// <summary>Builds request paths with escaped query-string values.</summary>
internal sealed class UrlBuilder
{
    private readonly StringBuilder _text;
    private bool _hasQuery;

    public UrlBuilder(string path)
    {
        _text = new StringBuilder(path);
        _hasQuery = path.Contains('?', StringComparison.Ordinal);
    }

    public static UrlBuilder ForDatabase(string database, string route) =>
        new("databases/" + Uri.EscapeDataString(database) + "/" + route);

    public UrlBuilder Add(string name, string value)
    {
        _text.Append(_hasQuery ? '&' : '?').Append(name).Append('=').Append(Uri.EscapeDataString(value));
        _hasQuery = true;
        return this;
    }

    public override string ToString() => _text.ToString();
}
