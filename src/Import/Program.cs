namespace Folio.Import;

/// <summary>
/// <c>dotnet run --project src/Import -- --url http://127.0.0.1:8080 --database db file.jsonl [--id-prefix users/] [--gzip]</c>:
/// streams newline-delimited JSON or a JSON array file into a Folio database through <c>bulk_insert</c>;
/// <c>export</c>, <c>backup</c> and <c>restore</c> ask the server for those (<see cref="ServerCommands"/>).
/// </summary>
public static class Program
{
    /// <summary>Runs the importer on the console.</summary>
    /// <param name="args">The command line; <c>--help</c> lists the options.</param>
    /// <returns>0 when every document was stored, 1 when the import failed, 2 for a usage error.</returns>
    public static async Task<int> Main(string[] args)
    {
        using var cancel = new CancellationTokenSource();
        Console.CancelKeyPress += (_, e) =>
        {
            e.Cancel = true;
            cancel.Cancel();
        };
        return await RunAsync(args, Console.Out, Console.Error, !Console.IsOutputRedirected, cancel.Token);
    }

    /// <summary>Runs the command line named by <paramref name="args"/>: a server command, else an import.</summary>
    /// <param name="args">The command line.</param>
    /// <param name="output">Progress and summaries.</param>
    /// <param name="error">Usage and failure messages.</param>
    /// <param name="interactive">Whether <paramref name="output"/> is a terminal (an import's bar redraws in place).</param>
    /// <param name="cancellationToken">Abandons the command.</param>
    /// <returns>0 on success, 1 when the command failed, 2 for a usage error.</returns>
    public static Task<int> RunAsync(string[] args, TextWriter output, TextWriter error, bool interactive, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(args);
        return args.Length > 0 && args[0] is "export" or "backup" or "restore"
            ? ServerCommands.RunAsync(args[0], args[1..], output, error, cancellationToken)
            : ImportCommand.RunAsync(args, output, error, interactive, cancellationToken);
    }
}
