namespace Folio.Server.Tests.Support;

/// <summary>Finds files of the repository the tests were built from.</summary>
public static class RepositoryFiles
{
    /// <summary>The directory holding Folio.slnx above the test binaries.</summary>
    public static string Root()
    {
        for (DirectoryInfo? directory = new(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "Folio.slnx")))
                return directory.FullName;
        }

        throw new InvalidOperationException($"No Folio.slnx above {AppContext.BaseDirectory}.");
    }
}
