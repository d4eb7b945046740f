import json, sys
d=json.load(open(sys.argv[1]))
cmds=d["commands"]; lags=d["lags"]; t0=lags[0][0]
lo,hi=65,110
def pct(xs,p):
    xs=sorted(xs); return xs[min(len(xs)-1,int(p*len(xs)))] if xs else None
steady=[c for c in cmds if lo < c[0][2]-t0 < hi]
from collections import defaultdict
seqs=defaultdict(list)
for c in steady: seqs[tuple(n for n,_,_ in c)].append(c)
for names, cs in sorted(seqs.items(), key=lambda x:-len(x[1]))[:2]:
    print(len(cs), names)
    for i in range(1,len(names)):
        ds=[(c[i][1]-c[i-1][1])*1000 for c in cs]
        print("   %-12s -> %-12s p50 %.2f p90 %.2f p99 %.2f"%(names[i-1],names[i],pct(ds,.5),pct(ds,.9),pct(ds,.99)))
    tot=[c[-1][1]*1000 for c in cs]
    print("   total p50 %.2f p99 %.2f"%(pct(tot,.5),pct(tot,.99)))
sl=[l*1000 for t,l in lags if lo<t-t0<hi]
print("lag ms p50 %.2f p90 %.2f p99 %.2f max %.2f n %d"%(pct(sl,.5),pct(sl,.9),pct(sl,.99),max(sl),len(sl)))
print("threshold", d.get("threshold"))
g=[(round(t-t0,1),gen,round(dur*1000,1),col) for t,gen,dur,col in d.get("gcs",[])]
print("gcs", len(g), "in window", [x for x in g if lo<x[0]<hi][:30])
print("gc >5ms all", [x for x in g if x[2]>5][:30])
bl=[(round(t-t0,2), round(l*1000,1)) for t,l in lags if l>0.02 and lo<t-t0<hi]
print("lags>20ms in window", len(bl), bl[:40])
