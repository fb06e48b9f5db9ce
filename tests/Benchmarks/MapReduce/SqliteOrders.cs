using System.Diagnostics;
using Microsoft.Data.Sqlite;

namespace Folio.Benchmarks.MapReduce;

/// <summary>A group's totals: how many entries, the integer sum (quantities) and the sum of the other number (freight or unit prices).</summary>
public readonly record struct GroupTotals(long Count, long Quantity, double Amount);

/// <summary>
/// The same orders in SQLite, normalized: <c>orders(id, company, freight)</c> and <c>lines(order_id, line_no,
/// product, quantity, price)</c>. It is the comparison (a <c>GROUP BY</c> over every row, and re-aggregating one
/// company after an update) and the oracle the harness checks Folio's and PouchDB's rows against. WAL journal,
/// <c>synchronous=NORMAL</c> (a commit does not sync; Folio's PUT does), a 256 MB page cache.
/// </summary>
public sealed class SqliteOrders : IDisposable
{
    /// <summary>Per company: orders, the sum of every line's quantity, the sum of the freight. Quantities summed per order first, so an order counts once.</summary>
    private const string ByCompanySql =
        "SELECT o.company, COUNT(*), SUM(q.quantity), SUM(o.freight) FROM orders o " +
        "JOIN (SELECT order_id, SUM(quantity) AS quantity FROM lines GROUP BY order_id) q ON q.order_id = o.id " +
        "WHERE o.id < $limit GROUP BY o.company";

    /// <summary>Per product: lines, the sum of their quantities, the sum of their unit prices.</summary>
    private const string ByProductSql = "SELECT product, COUNT(*), SUM(quantity), SUM(price) FROM lines WHERE order_id < $limit GROUP BY product";

    private readonly SqliteConnection _connection;

    /// <summary>Creates the database file <paramref name="path"/> (replacing one left there) with the two tables.</summary>
    public SqliteOrders(string path)
    {
        foreach (string leftover in new[] { path, path + "-wal", path + "-shm" })
            File.Delete(leftover);
        _connection = new SqliteConnection(new SqliteConnectionStringBuilder { DataSource = path, Pooling = false }.ToString());
        _connection.Open();
        Execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-262144; PRAGMA temp_store=MEMORY;");
        Execute("CREATE TABLE orders(id INTEGER PRIMARY KEY, company TEXT NOT NULL, freight REAL NOT NULL);" +
                "CREATE TABLE lines(order_id INTEGER NOT NULL, line_no INTEGER NOT NULL, product TEXT NOT NULL, quantity INTEGER NOT NULL, price REAL NOT NULL, PRIMARY KEY(order_id, line_no)) WITHOUT ROWID;");
    }

    /// <summary>
    /// Inserts orders <paramref name="first"/> up to <paramref name="last"/> (exclusive) of <paramref name="company"/>
    /// (their lines and freight from <see cref="MapReduceOrders"/>) in one transaction; returns the lines inserted.
    /// </summary>
    public long Load(int first, int last, Func<int, string> company)
    {
        long lines = 0;
        using SqliteTransaction tx = _connection.BeginTransaction();
        using SqliteCommand order = Command("INSERT INTO orders VALUES($id, $company, $freight)", tx, "$id", "$company", "$freight");
        using SqliteCommand line = Command("INSERT INTO lines VALUES($order, $no, $product, $quantity, $price)", tx, "$order", "$no", "$product", "$quantity", "$price");
        for (int n = first; n < last; n++)
        {
            order.Parameters[0].Value = n;
            order.Parameters[1].Value = company(n);
            order.Parameters[2].Value = MapReduceOrders.FreightCents(n) / 100.0;
            order.ExecuteNonQuery();
            int count = MapReduceOrders.LineCount(n);
            for (int i = 0; i < count; i++)
            {
                OrderLine item = MapReduceOrders.Line(n, i);
                line.Parameters[0].Value = n;
                line.Parameters[1].Value = i;
                line.Parameters[2].Value = MapReduceOrders.ProductName(item.Product);
                line.Parameters[3].Value = item.Quantity;
                line.Parameters[4].Value = item.PricePerUnit;
                line.ExecuteNonQuery();
            }

            lines += count;
        }

        tx.Commit();
        return lines;
    }

    /// <summary>Adds the index re-aggregating one company needs (<c>orders(company)</c>); returns how long it took.</summary>
    public TimeSpan IndexCompanies()
    {
        var watch = Stopwatch.StartNew();
        Execute("CREATE INDEX orders_company ON orders(company)");
        return watch.Elapsed;
    }

    /// <summary><c>GROUP BY company</c> over the orders numbered below <paramref name="limit"/>, timed.</summary>
    public (Dictionary<string, GroupTotals> Groups, TimeSpan Elapsed) GroupByCompany(int limit = int.MaxValue) => GroupBy(ByCompanySql, limit);

    /// <summary><c>GROUP BY product</c> over the lines of orders numbered below <paramref name="limit"/>, timed.</summary>
    public (Dictionary<string, GroupTotals> Groups, TimeSpan Elapsed) GroupByProduct(int limit = int.MaxValue) => GroupBy(ByProductSql, limit);

    /// <summary>Sets an order's freight and its first line's quantity, in one transaction.</summary>
    public void Update(int n, int freightCents, int firstQuantity)
    {
        using SqliteTransaction tx = _connection.BeginTransaction();
        using (SqliteCommand order = Command("UPDATE orders SET freight = $freight WHERE id = $id", tx, "$freight", "$id"))
        {
            order.Parameters[0].Value = freightCents / 100.0;
            order.Parameters[1].Value = n;
            order.ExecuteNonQuery();
        }

        using (SqliteCommand line = Command("UPDATE lines SET quantity = $quantity WHERE order_id = $id AND line_no = 0", tx, "$quantity", "$id"))
        {
            line.Parameters[0].Value = firstQuantity;
            line.Parameters[1].Value = n;
            line.ExecuteNonQuery();
        }

        tx.Commit();
    }

    /// <summary>Re-aggregates one company from its rows (through <c>orders(company)</c> and the lines' primary key).</summary>
    public GroupTotals Aggregate(string company)
    {
        using SqliteCommand orders = Command("SELECT COUNT(*), SUM(freight) FROM orders WHERE company = $c", null, "$c");
        using SqliteCommand lines = Command("SELECT SUM(l.quantity) FROM orders o JOIN lines l ON l.order_id = o.id WHERE o.company = $c", null, "$c");
        orders.Parameters[0].Value = company;
        lines.Parameters[0].Value = company;
        long count;
        double freight;
        using (SqliteDataReader reader = orders.ExecuteReader())
        {
            reader.Read();
            count = reader.GetInt64(0);
            freight = reader.IsDBNull(1) ? 0 : reader.GetDouble(1);
        }

        object? quantity = lines.ExecuteScalar();
        return new GroupTotals(count, quantity is long q ? q : 0, freight);
    }

    /// <summary>Closes the connection (the caller deletes the file with its work directory).</summary>
    public void Dispose()
    {
        _connection.Dispose();
        SqliteConnection.ClearAllPools();
    }

    private (Dictionary<string, GroupTotals> Groups, TimeSpan Elapsed) GroupBy(string sql, int limit)
    {
        var groups = new Dictionary<string, GroupTotals>(StringComparer.OrdinalIgnoreCase);
        using SqliteCommand command = Command(sql, null, "$limit");
        command.Parameters[0].Value = limit;
        var watch = Stopwatch.StartNew();
        using (SqliteDataReader reader = command.ExecuteReader())
        {
            while (reader.Read())
                groups[reader.GetString(0)] = new GroupTotals(reader.GetInt64(1), reader.GetInt64(2), reader.GetDouble(3));
        }

        return (groups, watch.Elapsed);
    }

    private SqliteCommand Command(string sql, SqliteTransaction? tx, params string[] parameters)
    {
        SqliteCommand command = _connection.CreateCommand();
        command.CommandText = sql;
        command.Transaction = tx;
        foreach (string name in parameters)
            command.Parameters.Add(new SqliteParameter { ParameterName = name });
        command.Prepare();
        return command;
    }

    private void Execute(string sql)
    {
        using SqliteCommand command = _connection.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }
}
