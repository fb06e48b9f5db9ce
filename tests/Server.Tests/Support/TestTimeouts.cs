namespace Folio.Server.Tests.Support;

public static class TestTimeouts
{
    // Generous because the CI machine is two cores shared with other builds; tests only ever wait this
    // long when something is broken.
    public static readonly TimeSpan Default = TimeSpan.FromSeconds(30);
}
