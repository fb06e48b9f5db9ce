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
        if (args.Length > 0 && args[0] is "export" or "backup" or "restore")
            return await ServerCommands.RunAsync(args[0], args[1..], Console.Out, Console.Error, cancel.Token);
        return await ImportCommand.RunAsync(args, Console.Out, Console.Error, !Console.IsOutputRedirected, cancel.Token);
    }
}
