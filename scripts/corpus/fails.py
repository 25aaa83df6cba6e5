import json,sys
r=json.load(open(sys.argv[1] if len(sys.argv)>1 else 'r.json'))
corp=sys.argv[2] if len(sys.argv)>2 else 'corpus'
for x in r['cases']:
    if x['verdict']!='correct' or (x['outcome']=='refuse' and not x.get('code_ok')):
        v=json.load(open(corp+'/'+x['id']+'/case.json'))['notes']
        print(x['id'],x['verdict'],x['error_codes'],v.get('variant'),v.get('lang'), x.get('problems'))
