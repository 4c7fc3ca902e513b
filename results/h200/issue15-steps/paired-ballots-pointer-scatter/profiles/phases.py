# The SASS source page of one kernel profile (ncu --page source --csv --print-source sass), split at its
# barriers (BAR.SYNC / BAR.RED / EXIT): per phase, its share of executed warp instructions and of stall
# samples, its top stall reasons and instruction kinds. usage: python3 phases.py SASS.csv (gunzip first).
import csv,sys,collections
rows=list(csv.reader(open(sys.argv[1])))
hdr=rows[1]; data=rows[2:]
ix={h:i for i,h in enumerate(hdr)}
stalls=[h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
segs=[];cur=None
def new(start):
    return {'start':start,'inst':0,'samples':0,'n':0,'st':collections.Counter(),'ops':collections.Counter(),'first':None}
cur=new(0)
tot_i=0;tot_s=0
for k,r in enumerate(data):
    src=r[ix['Source']].strip(); ex=int(r[ix['Instructions Executed']] or 0); sm=int(r[ix['Warp Stall Sampling (All Samples)']] or 0)
    op=src.split()[0] if src else ''
    if op.startswith('@'): op=src.split()[1]
    cur['inst']+=ex; cur['samples']+=sm; cur['n']+=1
    for s in stalls: cur['st'][s]+=int(r[ix[s]] or 0)
    cur['ops'][op.split('.')[0]]+=ex
    tot_i+=ex; tot_s+=sm
    if 'BAR.SYNC' in src or 'BAR.RED' in src or 'EXIT' == op:
        cur['end']=k; segs.append(cur); cur=new(k+1)
cur['end']=len(data)-1; segs.append(cur)
print("total inst %d samples %d"%(tot_i,tot_s))
for s in segs:
    if s['inst']==0 and s['samples']==0: continue
    top=", ".join("%s %d%%"%(a.replace('stall_',''),100*b/max(1,s['samples'])) for a,b in s['st'].most_common(4))
    ops=", ".join("%s %.0f%%"%(a,100*b/max(1,s['inst'])) for a,b in s['ops'].most_common(6))
    print("[%4d-%4d] inst %5.1f%% samples %5.1f%% | %s | %s"%(s['start'],s['end'],100*s['inst']/tot_i,100*s['samples']/tot_s,top,ops))
