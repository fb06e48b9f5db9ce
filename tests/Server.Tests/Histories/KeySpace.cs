namespace Folio.Server.Tests.Histories;

/// <summary>
/// The few documents every client works on, so operations collide: <c>registers/0</c>… in groups of four, each
/// document's group fixed at its first write, so a query by group must answer every document of it.
/// </summary>
internal sealed class KeySpace
{
    public const int GroupSize = 4;

    public KeySpace(int count)
    {
        var keys = new string[count];
        for (int i = 0; i < count; i++)
            keys[i] = $"registers/{i}";
        Keys = keys;
    }

    public IReadOnlyList<string> Keys { get; }

    public int Groups => (Keys.Count + GroupSize - 1) / GroupSize;

    public static string GroupName(int group) => "g" + group;

    public string GroupOf(string key) => GroupName(IndexOf(key) / GroupSize);

    /// <summary>The keys of one group.</summary>
    public List<string> InGroup(int group)
    {
        var keys = new List<string>(GroupSize);
        for (int i = group * GroupSize; i < Math.Min(Keys.Count, (group + 1) * GroupSize); i++)
            keys.Add(Keys[i]);
        return keys;
    }

    /// <summary><paramref name="count"/> distinct keys, from one group three times in four so batches and snapshots overlap.</summary>
    public List<string> Pick(Random random, int count)
    {
        List<string> pool = random.Next(4) < 3 ? InGroup(random.Next(Groups)) : [.. Keys];
        var picked = new List<string>(count);
        while (picked.Count < Math.Min(count, pool.Count))
        {
            int at = random.Next(pool.Count);
            picked.Add(pool[at]);
            pool.RemoveAt(at);
        }

        return picked;
    }

    private int IndexOf(string key) => int.Parse(key.AsSpan("registers/".Length), System.Globalization.CultureInfo.InvariantCulture);
}
