using System.Globalization;
using System.Text;
using Microsoft.Data.Sqlite;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// The oracle: the same documents in an in-memory SQLite database, as a table of JSON
/// (<c>docs(seq, id, json)</c>, seq being the load order). Every leaf value of every document is
/// listed once by SQLite's own <c>json_tree</c> in <c>vals(seq, path, kind, txt, num)</c>: its path with
/// array positions dropped (<c>Lines[2].Product</c> → <c>Lines.Product</c>), its JSON type, its
/// lower-cased text (numbers in .NET's invariant round-trip form, booleans as true/false, null for null)
/// and, for numbers, its value. Objects (other than the document) and empty arrays are listed too, with
/// neither text nor number, so that only <c>exists</c> finds them. Queries are SQL over those two tables (see <see cref="OracleQuery"/>).
/// </summary>
public sealed class SqliteOracle : IDisposable
{
    private readonly SqliteConnection _connection;

    private SqliteOracle(SqliteConnection connection)
    {
        _connection = connection;
    }

    public static SqliteOracle Load(IReadOnlyList<OracleDocument> documents)
    {
        var connection = new SqliteConnection("Data Source=:memory:");
        connection.Open();
        // The path of a leaf without "$." and array positions; object keys here are plain names.
        connection.CreateFunction("oracle_path", (string fullKey) => StripPath(fullKey), isDeterministic: true);
        // The text a leaf compares by: lower-cased invariantly, numbers as .NET writes them.
        connection.CreateFunction("oracle_text", (string type, object? atom) => Text(type, atom), isDeterministic: true);
        var oracle = new SqliteOracle(connection);
        oracle.Execute("""
            CREATE TABLE docs(seq INTEGER PRIMARY KEY, id TEXT NOT NULL, json TEXT NOT NULL);
            CREATE TABLE vals(seq INTEGER NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL, txt TEXT, num REAL);
            """);
        using (var transaction = connection.BeginTransaction())
        {
            using var insert = connection.CreateCommand();
            insert.Transaction = transaction;
            insert.CommandText = "INSERT INTO docs(seq, id, json) VALUES ($seq, $id, $json)";
            var seq = insert.Parameters.Add("$seq", SqliteType.Integer);
            var id = insert.Parameters.Add("$id", SqliteType.Text);
            var json = insert.Parameters.Add("$json", SqliteType.Text);
            insert.Prepare();
            for (int i = 0; i < documents.Count; i++)
            {
                seq.Value = i + 1;
                id.Value = documents[i].Id;
                json.Value = documents[i].Json;
                insert.ExecuteNonQuery();
            }
            using var values = connection.CreateCommand();
            values.Transaction = transaction;
            values.CommandText = """
                INSERT INTO vals(seq, path, kind, txt, num)
                SELECT d.seq, oracle_path(t.fullkey), t.type, oracle_text(t.type, t.atom),
                       CASE WHEN t.type IN ('integer', 'real') THEN t.atom END
                FROM docs d, json_tree(d.json) t
                WHERE t.type NOT IN ('object', 'array')
                   OR (t.type = 'object' AND t.fullkey <> '$')
                   OR (t.type = 'array' AND json_array_length(t.value) = 0);
                CREATE INDEX vals_txt ON vals(path, txt);
                CREATE INDEX vals_num ON vals(path, num);
                CREATE INDEX vals_doc ON vals(seq, path, txt, num);
                """;
            values.ExecuteNonQuery();
            transaction.Commit();
        }
        return oracle;
    }

    /// <summary>The ids the query matches, in its order.</summary>
    public List<string> Ids(string sql)
    {
        using var command = _connection.CreateCommand();
        command.CommandText = sql;
        using var reader = command.ExecuteReader();
        var ids = new List<string>();
        while (reader.Read())
            ids.Add(reader.GetString(0));
        return ids;
    }

    public string? Json(string id)
    {
        using var command = _connection.CreateCommand();
        command.CommandText = "SELECT json FROM docs WHERE id = $id";
        command.Parameters.AddWithValue("$id", id);
        return command.ExecuteScalar() as string;
    }

    public T Scalar<T>(string sql)
    {
        using var command = _connection.CreateCommand();
        command.CommandText = sql;
        return (T)Convert.ChangeType(command.ExecuteScalar()!, typeof(T), CultureInfo.InvariantCulture);
    }

    public void Dispose() => _connection.Dispose();

    private void Execute(string sql)
    {
        using var command = _connection.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    internal static string StripPath(string fullKey)
    {
        var path = new StringBuilder(fullKey.Length);
        int i = fullKey.StartsWith("$.", StringComparison.Ordinal) ? 2 : fullKey.StartsWith('$') ? 1 : 0;
        for (; i < fullKey.Length; i++)
        {
            char c = fullKey[i];
            if (c == '[')
            {
                i = fullKey.IndexOf(']', i);
                continue;
            }
            if (c == '"')
                continue;
            path.Append(c);
        }
        return path.ToString();
    }

    internal static string? Text(string type, object? atom) => type switch
    {
        "null" or "object" or "array" => null,
        "true" => "true",
        "false" => "false",
        "integer" => Convert.ToInt64(atom, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture),
        "real" => Convert.ToDouble(atom, CultureInfo.InvariantCulture).ToString("R", CultureInfo.InvariantCulture).ToLowerInvariant(),
        _ => ((string)atom!).ToLowerInvariant(),
    };
}
